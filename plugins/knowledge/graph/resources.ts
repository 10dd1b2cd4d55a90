// One MCP resource per node type (`knowledge://nodes/decision`…), as Markdown a client can attach.
import type { PluginContext } from '@mcp-gateway/core';
import type { GraphStore } from './graph-store.js';
import { NODE_TYPES, type KnowledgeNode } from './model.js';

/** Nodes shown per resource: the most recently changed. */
const SHOWN = 200;

export const typeResourceUri = (type: string) => `knowledge://nodes/${type}`;

export function registerTypeResources(ctx: Pick<PluginContext, 'resource'>, graph: GraphStore): void {
  for (const type of NODE_TYPES) {
    ctx.resource(
      {
        uri: typeResourceUri(type),
        name: `knowledge-${type}`,
        title: `Knowledge: ${type} nodes`,
        description: `Every ${type} node of the knowledge graph (the ${SHOWN} most recently changed), with its evidence and verification status, as Markdown.`,
        mimeType: 'text/markdown',
      },
      async () => {
        const { nodes, total } = await graph.list({ type }, SHOWN, 0);
        return markdown(type, nodes, total);
      },
    );
  }
}

function markdown(type: string, nodes: readonly KnowledgeNode[], total: number): string {
  const head = `# Knowledge: ${type} (${total})\n`;
  if (nodes.length === 0) return `${head}\nNone yet. Add one with knowledge_add.\n`;
  const more = total > nodes.length ? `\n_${total - nodes.length} older nodes not shown: page through them with knowledge_list._\n` : '';
  return head + nodes.map(section).join('') + more;
}

function section(node: KnowledgeNode): string {
  const evidence = node.evidence.map((e) => `- \`${e.path}${e.start_line ? `:${e.start_line}${e.end_line && e.end_line !== e.start_line ? `-${e.end_line}` : ''}` : ''}\``).join('\n');
  const tags = node.tags.length > 0 ? ` · tags: ${node.tags.join(', ')}` : '';
  return [
    `\n## ${node.summary}\n`,
    `\`${node.id}\` · ${node.verification_status} · confidence ${node.confidence}${tags} · updated ${node.updated_at}\n`,
    `\n${node.content}\n`,
    evidence ? `\nEvidence:\n${evidence}\n` : '',
  ].join('');
}
