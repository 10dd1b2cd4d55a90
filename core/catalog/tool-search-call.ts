import { GatewayError } from '../contract/errors.js';
import { isPlainObject } from '../lib/json.js';
import type { CallContext, ToolDefinition } from '../contract/plugin-types.js';
import type { CallRequest, CatalogToolHandler, RegisteredTool, ToolCatalog } from './tool-catalog.js';
import { isToolContent, textBlock, toolContent, toRestData } from './tool-result.js';
import { CALL_TOOL, FIND_TOOLS } from './tool-search-names.js';

/**
 * The largest delay a Node timer takes. The called tool's own time limit bounds the nested
 * call (its TOOL_TIMEOUT names it); this call's limit must never cut it short, as the
 * default `tools.timeoutMs` would for a tool that sets a longer one of its own.
 */
const MAX_TIMER_MS = 2_147_483_647;

export const callToolDefinition: ToolDefinition = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description: `Calls any tool you may call, by name, exactly as a direct call would: same checks, errors and result. Use it for a tool ${FIND_TOOLS} found that is not in your tool list.`,
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 64, description: 'The tool to call.' },
      arguments: { type: 'object', description: 'Its arguments, as its inputSchema describes.' },
    },
    examples: [{ name: 'gateway_status', arguments: {} }],
  },
  outputSchema: {
    type: 'object',
    description: `The called tool's own result, as its outputSchema (in ${FIND_TOOLS}' answer) describes.`,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  timeoutMs: MAX_TIMER_MS,
};

/**
 * Runs the named tool through `catalog.call` with the caller's own request (scopes, profile,
 * identity, session link, progress), so that validation, refusals, the audit row, limits and
 * errors are a direct call's; this call gets its audit row too.
 */
export function callToolHandler(catalog: ToolCatalog): CatalogToolHandler {
  return async (args: { name: string; arguments?: Record<string, unknown> }, call: CallContext, request: CallRequest) => {
    if (args.name === CALL_TOOL) {
      throw new GatewayError('TOOL_CALL_RECURSIVE', `${CALL_TOOL} cannot call itself: name the tool to run, with its own arguments.`);
    }
    const outcome = await catalog.call(args.name, args.arguments ?? {}, {
      ...request,
      // The transport holds this call's cancel hook, not the nested one's: a client's cancel,
      // a disconnect or this call's own end reaches the nested call through this call's signal.
      onCancelable: (cancel) => {
        if (call.signal.aborted) cancel();
        else call.signal.addEventListener('abort', cancel, { once: true });
      },
    });
    if (!outcome.ok) throw outcome.error;
    return asDirectResult(outcome.value, outcome.tool, outcome.json);
  };
}

/**
 * The called tool's value, sent as a direct call sends it. This tool declares an outputSchema,
 * so its MCP result must carry structuredContent, an object: a tool with an outputSchema of
 * its own, or a result with structured content, has it already and passes unchanged (the same
 * content and structuredContent, the same REST data). For the rest (a relayed server's tool
 * may declare no outputSchema) the content blocks stay the direct call's, and
 * structuredContent is what REST answers: `{content}` for content blocks, the value itself
 * for an object, `{result: value}` for anything else.
 */
function asDirectResult(value: unknown, tool: RegisteredTool, json: string): unknown {
  if (tool.definition.outputSchema !== undefined) return value;
  if (isToolContent(value)) return value.structured === undefined ? toolContent(value.content, { content: value.content }) : value;
  return isPlainObject(value) ? value : toolContent([textBlock(json)], { result: toRestData(value) });
}
