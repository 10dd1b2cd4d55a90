import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListToolsRequestSchema, LoggingLevelSchema } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError, type ErrorTable } from '../errors.js';
import { jsonRpcError } from '../replies.js';
import type { Logger } from '../logger.js';
import type { SessionInfo, SessionRegistry } from './sessions.js';
import type { RegisteredTool, ToolCatalog } from '../catalog/tool-catalog.js';
import { serveToolCalls } from './mcp-tool-calls.js';
import type { TransportKind } from '../plugins/plugin-types.js';

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

/** What every session offers; static, so that --stdio can answer `initialize` before the plugins boot. */
export const SERVER_CAPABILITIES = { tools: { listChanged: false }, logging: {} };

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
    { capabilities: SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS },
  );
  server.oninitialized = () => {
    session.client = server.getClientVersion()?.name;
  };
  let toolCalls: { cancelAll(): void } | undefined;
  server.onclose = () => {
    toolCalls?.cancelAll();
    deps.sessions.close(session.id);
  };
  server.onerror = (err) => deps.log.debug({ err, session: session.id }, 'MCP session error');

  const { allows } = options;
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: allows ? deps.catalog.list().filter(allows).map((t) => t.listing) : deps.catalog.listings(),
  }));
  try {
    await server.connect(transport);
  } catch (err) {
    deps.sessions.close(session.id);
    throw err;
  }
  // Installed before the tool-call path, which then wraps it: tools/call never passes here.
  refuseBadLogLevels(transport);
  toolCalls = serveToolCalls(transport, {
    catalog: deps.catalog,
    errors: deps.errors,
    log: deps.log,
    allows,
    caller: () => ({ transport: options.transport, sessionId: session.id, identity: options.identity ?? session.client ?? session.peer }),
  });
  return { server, session };
}

/**
 * The SDK answers `logging/setLevel` with an unknown level as an internal error (-32603)
 * whose message is zod's JSON; a caller should get -32602 and a sentence.
 */
function refuseBadLogLevels(transport: Transport): void {
  const next = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if ('method' in message && message.method === 'logging/setLevel' && 'id' in message) {
      const level = (message.params as { level?: unknown } | undefined)?.level;
      if (!LoggingLevelSchema.safeParse(level).success) {
        const error = new GatewayError('INVALID_PARAMS', `logging/setLevel: "level" must be one of ${LoggingLevelSchema.options.join(', ')}.`);
        transport.send(jsonRpcError(message.id, error)).catch(() => {});
        return;
      }
    }
    next(message, extra);
  };
}
