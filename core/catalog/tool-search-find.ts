import { GatewayError } from '../contract/errors.js';
import type { ToolDefinition } from '../contract/plugin-types.js';
import { searchTerms } from '../storage/search-terms.js';
import { closedObject, type JsonSchema } from '../lib/schema.js';
import { callRefusal, toolEntry, type CallRequest, type CatalogToolHandler } from './tool-catalog.js';
import type { ToolSearchIndex } from './tool-search-index.js';
import { FIND_TOOLS } from './tool-search-names.js';

const MAX_QUERY_LENGTH = 500;
const MAX_RESULTS = 20;

const object: JsonSchema = { type: 'object' };

/** One hit: the tool as tools/list gives it, its plugin (and origin, for a relayed tool) and its score. */
const foundTool = closedObject(
  {
    plugin: { type: 'string' },
    origin: { type: 'string', description: 'Where a relayed tool runs.' },
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    inputSchema: object,
    outputSchema: object,
    annotations: object,
    score: { type: 'number', minimum: 0, maximum: 1, description: 'How well it matches, 0 to 1.' },
  },
  ['origin', 'title', 'outputSchema', 'annotations'],
);

export const findToolsDefinition: ToolDefinition = {
  name: FIND_TOOLS,
  title: 'Find tools',
  description:
    'Finds tools by what they do among all the tools you may call, including those not in your tool list, with their full definitions. Use it when the tool you need is not in your list, then run it with gateway_call_tool.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
      query: { type: 'string', minLength: 1, maxLength: MAX_QUERY_LENGTH, description: 'What you want to do, in words: "edit a file", "remember a fact".' },
      plugin: { type: 'string', minLength: 1, maxLength: 64, description: 'Only tools of this plugin.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, default: 5 },
    },
    examples: [{ query: 'read a file' }],
  },
  outputSchema: closedObject({
    tools: { type: 'array', items: foundTool, description: 'Best match first.' },
    total: { type: 'integer', minimum: 0, description: 'How many tools matched, before the limit.' },
  }),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/**
 * Ranks by what a caller may call, not by what its tools/list shows: a profile lists a few
 * tools up front and leaves the rest (those it allows) to be found here.
 */
export function findToolsHandler(index: ToolSearchIndex): CatalogToolHandler {
  return async (args: { query: string; plugin?: string; limit: number }, _call: unknown, request: CallRequest) => {
    // minLength lets "   " or "?!" through; searchTerms is what the index reads of a query.
    if (searchTerms(args.query).length === 0) {
      throw new GatewayError('INVALID_ARGUMENTS', `Invalid arguments for ${FIND_TOOLS}: the query has no words; say in words what the tool should do, e.g. "read a file".`, {
        details: [{ path: '/query', message: 'must hold at least one word (letters or digits)' }],
      });
    }
    const { hits, total } = await index.find({ text: args.query, plugin: args.plugin, limit: args.limit, allows: (tool) => callRefusal(tool, request) === undefined });
    // Three decimals tell the hits apart as well as sixteen, in fewer tokens.
    return { tools: hits.map(({ tool, score }) => ({ ...toolEntry(tool), score: Math.round(score * 1000) / 1000 })), total };
  };
}
