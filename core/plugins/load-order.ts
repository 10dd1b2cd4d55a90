import { GatewayError } from '../contract/errors.js';

export interface Node {
  readonly name: string;
  readonly requires: readonly string[];
}

/**
 * Orders nodes so that each comes after everything it requires (depth-first, stable in the
 * given order). Requirements that are not among the nodes are reported in `missing`, for the
 * host to fail or skip; a cycle is always an error, naming the whole loop.
 */
export function orderByRequirements(nodes: readonly Node[]): { order: string[]; missing: Map<string, string[]> } {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const order: string[] = [];
  const missing = new Map<string, string[]>();
  const state = new Map<string, 'visiting' | 'done'>();

  const visit = (node: Node, path: string[]): void => {
    const seen = state.get(node.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const loop = [...path.slice(path.indexOf(node.name)), node.name];
      throw new GatewayError('PLUGIN_DEPENDENCY', `Plugin requirements form a cycle: ${loop.join(' → ')}.`);
    }
    state.set(node.name, 'visiting');
    for (const required of node.requires) {
      const dependency = byName.get(required);
      if (dependency) visit(dependency, [...path, node.name]);
      else missing.set(node.name, [...(missing.get(node.name) ?? []), required]);
    }
    state.set(node.name, 'done');
    order.push(node.name);
  };

  for (const node of nodes) visit(node, []);
  return { order, missing };
}
