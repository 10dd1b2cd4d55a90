import type { CallToolResult, Client, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import { toolContent, type CallContext, type JsonSchema, type ToolAnnotations, type ToolDefinition } from '@mcp-gateway/core';
import { gatewayName } from './names.js';
import { cursorParams, listAll } from './paging.js';
import type { MirrorEntry } from './mirror.js';
import type { ServerLink } from './server-link.js';
import { checkTool } from './tool-check.js';

/** A tools/list page taken as it came: its tools are checked one by one (tool-check.ts). */
const UNCHECKED_PAGE: StandardSchemaV1<unknown, { tools?: unknown; nextCursor?: unknown }> = {
  '~standard': {
    version: 1,
    vendor: 'mcp-gateway',
    validate: (value) => (typeof value === 'object' && value !== null ? { value } : { issues: [{ message: 'the tools/list answer is not an object' }] }),
  },
};

/**
 * Every entry of the server's tools list (all pages), in its order, unchecked: each is checked
 * on its own in toolEntries. (Not the SDK's listTools, which refuses the whole list for one
 * bad tool, and compiles output schemas with its own validator that core already applies.)
 */
export function listTools(client: Client): Promise<unknown[]> {
  return listAll(async (cursor) => {
    const page = await client.request({ method: 'tools/list', params: cursorParams(cursor) }, UNCHECKED_PAGE);
    const { tools, nextCursor } = page;
    if (!Array.isArray(tools)) throw new Error('the tools/list answer has no tools array');
    return { items: tools as unknown[], ...(typeof nextCursor === 'string' ? { nextCursor } : {}) };
  });
}

/**
 * The gateway's entries for a server's tools that its include/exclude lists let through. A
 * malformed tool becomes an entry that is never added, its reason shown in the status.
 */
export function toolEntries(link: ServerLink, listed: readonly unknown[]): MirrorEntry[] {
  return listed.flatMap((entry, index): MirrorEntry[] => {
    const name = (entry as { name?: unknown } | null)?.name;
    if (typeof name === 'string' && !link.offers(name)) return [];
    const checked = checkTool(entry, index);
    if ('refused' in checked) {
      const { upstream, reason } = checked.refused;
      return [{ upstream, name: typeof name === 'string' ? gatewayName(link.prefix, name) : '', fingerprint: '', add: refusedEntry, unusable: reason }];
    }
    return [usableEntry(link, checked.tool)];
  });
}

function refusedEntry(): never {
  throw new Error('a refused tool is never added');
}

function usableEntry(link: ServerLink, tool: Tool): MirrorEntry {
  const definition = toolDefinition(link, tool);
  return {
    upstream: tool.name,
    name: definition.name,
    fingerprint: JSON.stringify(definition),
    add: () => link.ctx.live.tool(definition, (args, call) => callTool(link, tool.name, args, call)),
    // A tool that runs only as an MCP task could never be called through the gateway.
    ...(tool.execution?.taskSupport === 'required' ? { unusable: 'it runs only as an MCP task (execution.taskSupport: required), which the gateway does not relay' } : {}),
  };
}

function toolDefinition(link: ServerLink, tool: Tool): ToolDefinition {
  const { config } = link;
  const annotations = tool.annotations ?? {};
  const title = tool.title ?? annotations.title;
  return {
    name: gatewayName(link.prefix, tool.name),
    ...(title === undefined ? {} : { title }),
    description: tool.description?.trim() || `Tool "${tool.name}" of the upstream server "${config.name}".`,
    inputSchema: tool.inputSchema as JsonSchema,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as JsonSchema }),
    annotations: pickAnnotations(annotations),
    timeoutMs: link.limitMs,
    foreignSchemas: true,
    origin: `upstream ${config.name}: ${tool.name}`,
    // A slow server's call becomes a task a 2026-07-28 client polls, when the client declares the extension.
    taskSupport: 'optional',
  };
}

/** MCP's defaults where the server says nothing (readOnlyHint false: it may change things). */
function pickAnnotations(annotations: NonNullable<Tool['annotations']>): ToolAnnotations {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return {
    readOnlyHint: readOnlyHint ?? false,
    ...(destructiveHint === undefined ? {} : { destructiveHint }),
    ...(idempotentHint === undefined ? {} : { idempotentHint }),
    ...(openWorldHint === undefined ? {} : { openWorldHint }),
  };
}

/**
 * One call, relayed: through the server's breaker, cancelled there when the call is
 * (the SDK sends notifications/cancelled), with the server's progress passed on to the caller.
 * A result the server marks isError becomes UPSTREAM_TOOL_ERROR with its text.
 */
async function callTool(link: ServerLink, name: string, args: Record<string, unknown>, call: CallContext): Promise<unknown> {
  const result = (await link.request(call, (client, options) =>
    client.callTool({ name, arguments: args }, {
      ...options,
      onprogress: ({ progress, total, message }) =>
        call.progress({ progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) }),
    }),
  )) as CallToolResult;
  if (result.isError) {
    const text = result.content
      .filter((block) => block.type === 'text')
      .map((block) => block.text)
      .join('\n')
      .slice(0, 4000);
    throw link.error('UPSTREAM_TOOL_ERROR', text || `The tool "${name}" of the upstream server "${link.config.name}" reported a failure.`, {
      content: result.content,
    });
  }
  // An object in the 2025 era; the 2026 revision allows any JSON value, which core checks against the outputSchema.
  return toolContent(result.content ?? [], result.structuredContent as Record<string, unknown> | undefined);
}
