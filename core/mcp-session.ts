import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorTable } from './errors.js';
import type { Logger } from './logger.js';
import type { SessionInfo, SessionRegistry } from './sessions.js';
import type { ToolCatalog } from './tool-catalog.js';
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

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: deps.catalog.listings() }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const progressToken = extra._meta?.progressToken;
    const outcome = await deps.catalog.call(name, args, {
      caller: { transport: options.transport, sessionId: session.id, identity: session.client ?? session.peer },
      signal: extra.signal,
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

  await server.connect(transport);
  return { server, session };
}
