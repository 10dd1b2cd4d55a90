import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { coreErrors, type ErrorTable } from './errors.js';
import type { Logger } from './logger.js';
import type { SessionInfo, SessionRegistry } from './sessions.js';
import type { RegisteredTool, ToolCatalog } from './tool-catalog.js';
import { toMcpErrorResult, toMcpResult } from './tool-result.js';
import type { TransportKind } from './plugin-types.js';

export interface McpSessionDeps {
  readonly catalog: ToolCatalog;
  readonly errors: ErrorTable;
  readonly sessions: SessionRegistry;
  readonly log: Logger;
  readonly version: string;
}

export interface McpSessionOptions {
  transport: TransportKind;
  peer?: string;
  /** A session id the transport already assigned (Streamable HTTP). */
  sessionId?: string;
  /** Who the caller is when the transport knows better than `initialize` (an API key's name). */
  identity?: string;
  /** The tools this session may see and call (API-key scopes); all when absent. */
  allows?: (tool: RegisteredTool) => boolean;
}

export const SERVER_INSTRUCTIONS =
  'mcp-gateway serves the tools of several plugins. Tool failures come back as isError results whose text is JSON {code, message, details?}; the code is stable and the message says what to do.';

/**
 * One MCP session: a fresh SDK Server (the SDK allows one connection per Server) wired to the
 * shared catalog, and connected to `transport`. Resolves once the transport has started.
 */
export async function openMcpSession(
  deps: McpSessionDeps,
  transport: Transport,
  options: McpSessionOptions,
): Promise<{ server: Server; session: SessionInfo }> {
  const session = deps.sessions.open(options.transport, options.peer, options.sessionId);
  const server = new Server(
    { name: 'mcp-gateway', version: deps.version },
    { capabilities: { tools: { listChanged: false }, logging: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  server.oninitialized = () => {
    session.client = server.getClientVersion()?.name;
  };
  server.onclose = () => deps.sessions.close(session.id);
  server.onerror = (err) => deps.log.debug({ err, session: session.id }, 'MCP session error');

  const { allows } = options;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allows ? deps.catalog.list().filter(allows).map((t) => t.listing) : deps.catalog.listings(),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const progressToken = extra._meta?.progressToken;
    const outcome = await deps.catalog.call(name, args, {
      caller: { transport: options.transport, sessionId: session.id, identity: options.identity ?? session.client ?? session.peer },
      signal: extra.signal,
      allows,
      onProgress:
        progressToken === undefined
          ? undefined
          : (update) => {
              extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } })
                .catch(() => {});
            },
    });
    if (outcome.ok) return toMcpResult(outcome.value, outcome.tool.validateOutput !== undefined);
    const spec = deps.errors.get(outcome.error.code);
    if (spec?.mcp === 'protocol') {
      // The SDK turns a thrown error with a numeric `code` into a JSON-RPC error as it is;
      // McpError would prefix "MCP error -32602:" to a message that is already complete.
      throw Object.assign(new Error(outcome.error.message), {
        code: spec.jsonRpcCode ?? -32603,
        data: { code: outcome.error.code },
      });
    }
    return toMcpErrorResult(outcome.error);
  });

  try {
    await server.connect(transport);
  } catch (err) {
    deps.sessions.close(session.id);
    throw err;
  }
  guardToolCallParams(transport);
  return { server, session };
}

/**
 * The SDK parses a request's params with zod before any handler runs, and a mismatch
 * surfaces as -32603 Internal error with the zod dump as its message. A tools/call with
 * malformed params is the caller's mistake: answer it here with -32602 and a plain message.
 * Installed after `connect`, which is where the SDK sets `onmessage`.
 */
function guardToolCallParams(transport: Transport): void {
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const problem = isJSONRPCRequest(message) && message.method === 'tools/call' ? toolCallProblem(message.params) : undefined;
    if (problem === undefined) {
      deliver(message, extra);
      return;
    }
    const error = { code: coreErrors.INVALID_PARAMS.jsonRpcCode, message: `Invalid tools/call params: ${problem}.`, data: { code: 'INVALID_PARAMS' } };
    transport.send({ jsonrpc: '2.0', id: (message as { id: string | number }).id, error }).catch(() => {});
  };
}

function toolCallProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return 'params must be an object';
  if (typeof params.name !== 'string') return '"name" must be a string naming a tool';
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return '"arguments" must be an object';
  if (params._meta !== undefined && !isPlainObject(params._meta)) return '"_meta" must be an object';
  return undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
