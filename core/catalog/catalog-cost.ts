import type { RegisteredTool } from './tool-catalog.js';

/**
 * What a set of tools costs a client before its first call: the bytes of each tools/list
 * entry, and the tokens a model spends on them, approximated as bytes ÷ 4 (the rule of thumb
 * for English and JSON; a tokenizer would tie the figure to one model). `mcp-gateway tools
 * --cost`, the definition budgets and the bench all count this way.
 */
export interface ToolCost {
  readonly name: string;
  readonly plugin: string;
  readonly bytes: number;
  readonly tokens: number;
}

export interface PluginCost {
  readonly plugin: string;
  readonly tools: number;
  readonly bytes: number;
  readonly tokens: number;
}

export interface CatalogCost {
  /** In the order given. */
  readonly tools: readonly ToolCost[];
  /** In the order their first tool came. */
  readonly plugins: readonly PluginCost[];
  readonly total: { readonly tools: number; readonly bytes: number; readonly tokens: number };
}

/** UTF-8 bytes of `value` as JSON: what it weighs on the wire. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** The bytes of a tool's tools/list entry. */
export function listingBytes(tool: Pick<RegisteredTool, 'listing'>): number {
  return jsonBytes(tool.listing);
}

/** Tokens a model spends on `bytes` of tool definitions, approximately. */
export function approxTokens(bytes: number): number {
  return Math.round(bytes / 4);
}

/** The cost of `tools` (a whole catalog, one plugin's, a profile's), tool by tool, plugin by plugin and in all. */
export function catalogCost(tools: readonly RegisteredTool[]): CatalogCost {
  const perTool = tools.map((tool): ToolCost => {
    const bytes = listingBytes(tool);
    return { name: tool.listing.name, plugin: tool.plugin, bytes, tokens: approxTokens(bytes) };
  });
  const byPlugin = new Map<string, { tools: number; bytes: number }>();
  for (const { plugin, bytes } of perTool) {
    const sum = byPlugin.get(plugin) ?? { tools: 0, bytes: 0 };
    byPlugin.set(plugin, { tools: sum.tools + 1, bytes: sum.bytes + bytes });
  }
  const bytes = perTool.reduce((sum, tool) => sum + tool.bytes, 0);
  return {
    tools: perTool,
    plugins: [...byPlugin].map(([plugin, sum]) => ({ plugin, ...sum, tokens: approxTokens(sum.bytes) })),
    total: { tools: perTool.length, bytes, tokens: approxTokens(bytes) },
  };
}

/** `cost` as `mcp-gateway tools --cost` prints it: a line per tool, then per plugin, then the total. */
export function formatCatalogCost(cost: CatalogCost): string {
  const nameWidth = Math.max(4, 'total'.length, ...cost.tools.map((t) => t.name.length), ...cost.plugins.map((p) => p.plugin.length));
  const pluginWidth = Math.max(6, ...cost.tools.map((t) => t.plugin.length));
  const figures = (bytes: number, tokens: number) => `${String(bytes).padStart(8)}  ${String(tokens).padStart(7)}`;
  const lines = [
    `${'TOOL'.padEnd(nameWidth)}  ${'PLUGIN'.padEnd(pluginWidth)}  ${'BYTES'.padStart(8)}  ${'~TOKENS'.padStart(7)}`,
    ...cost.tools.map((t) => `${t.name.padEnd(nameWidth)}  ${t.plugin.padEnd(pluginWidth)}  ${figures(t.bytes, t.tokens)}`),
    '',
    `${'PLUGIN'.padEnd(nameWidth)}  ${'TOOLS'.padStart(pluginWidth)}  ${'BYTES'.padStart(8)}  ${'~TOKENS'.padStart(7)}`,
    ...cost.plugins.map((p) => `${p.plugin.padEnd(nameWidth)}  ${String(p.tools).padStart(pluginWidth)}  ${figures(p.bytes, p.tokens)}`),
    `${'total'.padEnd(nameWidth)}  ${String(cost.total.tools).padStart(pluginWidth)}  ${figures(cost.total.bytes, cost.total.tokens)}`,
    '',
    'Bytes of each tools/list entry as JSON; tokens approximated as bytes ÷ 4.',
  ];
  return `${lines.join('\n')}\n`;
}
