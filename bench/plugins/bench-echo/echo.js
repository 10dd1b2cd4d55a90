// The trivial tool both sides of every MCP and REST comparison run: the gateway through the
// bench-echo plugin (its inputSchema validated by core), the bare baselines with no validation.
// Plain JavaScript so that the compiled binary and the bare child servers load it as it is.

export const ECHO_TOOL = 'bench_echo';

export const echoInputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['text'],
  properties: {
    text: { type: 'string', minLength: 1, maxLength: 10000 },
    count: { type: 'integer', minimum: 0, maximum: 1000000, default: 0 },
  },
};

export const echoDescription = 'Returns the text it was given. Benchmarks only.';

/** The handler: cheap enough that transport and gateway costs dominate. */
export function echo(args) {
  return { text: args.text };
}

/** The MCP result a bare server sends, built as core/catalog/tool-result.ts toMcpResult builds it. */
export function echoMcpResult(args) {
  return { content: [{ type: 'text', text: JSON.stringify(echo(args)) }] };
}

/**
 * A synthetic tool for the catalog-growth runs: each gets a schema of its own (not one shared
 * object), so compiling, listing and documenting 1,000 of them costs what 1,000 real ones would.
 */
export function syntheticTool(index) {
  const name = `bench_syn_${String(index).padStart(4, '0')}`;
  return {
    name,
    title: `Synthetic tool ${index}`,
    description: `Synthetic benchmark tool number ${index}: echoes its text. It exists to grow the catalog.`,
    inputSchema: {
      type: 'object',
      additionalProperties: false,
      required: ['text'],
      properties: {
        text: { type: 'string', minLength: 1, maxLength: 1000 + index },
        mode: { enum: ['plain', 'upper', `mode_${index}`], default: 'plain' },
        limit: { type: 'integer', minimum: 1, maximum: 100 + index, default: 10 },
        tags: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 64 } },
      },
    },
  };
}
