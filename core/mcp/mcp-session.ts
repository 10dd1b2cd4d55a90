import {
  isJSONRPCRequest,
  PROTOCOL_VERSION_META_KEY,
  Server,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
  type RequestStateCodec,
  type ServerCapabilities,
  type ServerOptions,
  type Transport,
} from '@modelcontextprotocol/server';
import { claimsModernEra } from './era-claim.js';
import type { ErrorTable } from '../contract/errors.js';
import { jsonRpcError } from '../contract/replies.js';
import type { Logger } from '../lib/logger.js';
import type { SessionInfo, SessionRegistry } from '../sessions/sessions.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import { listingsFor, type CallerView } from '../catalog/caller-view.js';
import { toolCallStage } from './call-stage.js';
import { sessionToolCalls } from './mcp-tool-calls.js';
import { InboundGate, type GateStage } from './inbound-gate.js';
import { asLegacyResponse } from './legacy-error-codes.js';
import type { Caller, TransportKind } from '../contract/plugin-types.js';
import type { PromptCatalog } from '../catalog/prompt-catalog.js';
import type { ResourceCatalog } from '../catalog/resource-catalog.js';
import { paramsProblem } from './param-checks.js';
import { servePrompts } from './mcp-prompts.js';
import { serveResources } from './mcp-resources.js';
import { serveResourceSubscriptions } from './mcp-resource-subscriptions.js';
import type { ResourceSubscriptions } from '../sessions/resource-subscriptions.js';
import { sessionClientLink } from '../sessions/session-client-link.js';
import type { ContentSession } from './mcp-content.js';
import type { RoundState } from '../sessions/input-round.js';
import type { Tasks } from '../tasks/tasks.js';

export interface McpSessionDeps {
  readonly catalog: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly subscriptions: ResourceSubscriptions;
  readonly errors: ErrorTable;
  readonly sessions: SessionRegistry;
  readonly log: Logger;
  readonly version: string;
  /** What `initialize` and `server/discover` answer; SERVER_CAPABILITIES with the gateway's declared channels. */
  readonly capabilities?: ServerCapabilities;
  /** Signs and checks the requestState of 2026-07-28 Multi Round-Trip Requests (input-round.ts). */
  readonly requestStates: RequestStateCodec<RoundState>;
  /** The tasks of the 2026-07-28 tasks extension (tasks/tasks.ts). */
  readonly tasks: Tasks;
}

export interface McpSessionOptions {
  transport: TransportKind;
  peer?: string;
  /** A session id the transport already assigned (Streamable HTTP). */
  sessionId?: string;
  /** Who the caller is when the transport knows better than `initialize` (an API key's name). */
  identity?: string;
  /** What the session may see and call: its key's scopes and its profile (caller-view.ts); everything when absent. */
  view?: CallerView;
}

/** What every session offers; static, so that --stdio can answer `initialize` before the plugins boot. */
export const SERVER_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
  experimental: { 'claude/channel': { channels: [] as string[] } },
};

/**
 * SERVER_CAPABILITIES with the `claude/channel` list: the channels the enabled plugins declare
 * in their plugin objects (`Gateway.channels`, or `declaredChannels` before a boot).
 */
export function serverCapabilities(channels: readonly string[]): ServerCapabilities {
  return { ...SERVER_CAPABILITIES, experimental: { 'claude/channel': { channels: [...channels] } } };
}

export const SERVER_INSTRUCTIONS =
  'mcp-gateway serves the tools of several plugins. Tool failures come back as isError results whose text is JSON {code, message, details?}; the code is stable and the message says what to do.';

/** Who answers: the `serverInfo` of `initialize`, `server/discover` and every 2026-07-28 result. */
export function serverInfo(version: string): { name: string; version: string } {
  return { name: 'mcp-gateway', version };
}

/**
 * The SDK Server of one session or, in the 2026 era, of one request: whatever connects it (the
 * gateway, or the SDK's own era entry, which connects the instances it asks for), it connects
 * through `gate`, so that the gateway's InboundGate always stands between it and the transport.
 */
class GatedServer extends Server {
  readonly #gate: (transport: Transport) => Transport;

  constructor(deps: McpSessionDeps, gate: (transport: Transport) => Transport, options: Pick<ServerOptions, 'requestState' | 'capabilities'>) {
    super(serverInfo(deps.version), { capabilities: deps.capabilities ?? SERVER_CAPABILITIES, instructions: SERVER_INSTRUCTIONS, ...options });
    this.#gate = gate;
  }

  override connect(transport: Transport): Promise<void> {
    return super.connect(this.#gate(transport));
  }
}

/**
 * A Server answering what every MCP caller may ask in either era: tools/list, and the lists,
 * reads, gets and completions of resources and prompts, as `view` lets the caller see them.
 * `options` are the SDK's own, for the era that needs some.
 */
export function catalogServer(
  deps: McpSessionDeps,
  view: CallerView,
  callers: Pick<ContentSession, 'caller' | 'asking'>,
  gate: (transport: Transport) => Transport,
  options: Pick<ServerOptions, 'requestState' | 'capabilities'> = {},
): Server {
  const server = new GatedServer(deps, gate, options);
  server.setRequestHandler('tools/list', () => ({ tools: listingsFor(deps.catalog, view) }));
  const content = { ...callers, allowsPlugin: view.allowsPlugin };
  serveResources(server, deps, content);
  servePrompts(server, deps, content);
  return server;
}

/** The gate stage that answers malformed params with -32602 and a sentence (param-checks.ts). */
export function paramsStage(transport: Transport, era: 'legacy' | 'modern'): GateStage {
  return (message) => {
    const problem = paramsProblem(message, era);
    if (problem) transport.send(jsonRpcError((message as { id: string | number }).id, problem)).catch(() => {});
    return problem !== undefined;
  };
}

/** A 2025-era session: its SDK Server and its entry in the session registry. */
export interface LegacySession {
  readonly server: Server;
  readonly session: SessionInfo;
}

/**
 * The gate stage of a 2025-era session that refuses a request claiming 2026-07-28 in its
 * `_meta`: eras do not mix on one session, and the SDK's entries, once a connection is pinned,
 * pass such a request through as a 2025 one. -32022, naming the revisions this session speaks.
 */
function refuseModernRequests(transport: Transport): GateStage {
  return (message) => {
    if (!isJSONRPCRequest(message) || !claimsModernEra(message)) return false;
    const requested = String((message.params?._meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]);
    const error = new UnsupportedProtocolVersionError(
      { supported: [...SUPPORTED_PROTOCOL_VERSIONS], requested },
      `Unsupported protocol version: ${requested} on a session begun with initialize, which speaks the 2025 revisions only.`,
    );
    transport.send({ jsonrpc: '2.0', id: message.id, error: { code: error.code, message: error.message, data: error.data } }).catch(() => {});
    return true;
  };
}

/**
 * One 2025-era MCP session: a fresh SDK Server (the SDK allows one connection per Server) wired
 * to the shared catalog, and connected to `transport`. Resolves once the transport has started.
 */
export async function openMcpSession(deps: McpSessionDeps, transport: Transport, options: McpSessionOptions): Promise<LegacySession> {
  const opened = legacySession(deps, options);
  try {
    await opened.server.connect(transport);
  } catch (err) {
    deps.sessions.close(opened.session.id);
    throw err;
  }
  return opened;
}

/**
 * A 2025-era session not connected yet, recorded in the registry from now on: its Server
 * connects through its gate (tool calls, param checks, the ready mark, the 2025 error codes)
 * whoever connects it, and ends the session when it closes.
 */
export function legacySession(deps: McpSessionDeps, options: McpSessionOptions): LegacySession {
  const session = deps.sessions.open(options.transport, options.peer, options.sessionId);
  const view = options.view ?? {};
  const { allows, profile, allowsPlugin } = view;
  // keyName only where a key named the session: a caller object has no keys set to undefined.
  const keyName = options.identity === undefined ? {} : { keyName: options.identity };
  const caller = (): Caller => ({ transport: options.transport, sessionId: session.id, identity: session.identity, ...keyName });
  let toolCalls: ReturnType<typeof toolCallStage> | undefined;
  // Prompts and resource reads ask the client as tool calls do, on the session; never in rounds.
  const asking = () => ({ client, asked: false, inputRequired: () => undefined });
  const server = catalogServer(deps, view, { caller, asking }, (inner) => {
    const answerer = sessionToolCalls({
      catalog: deps.catalog,
      errors: deps.errors,
      log: deps.log,
      allows,
      profile,
      caller,
      client,
      notes: (caller, tool) => deps.sessions.resultNotes(caller, tool),
    });
    toolCalls = toolCallStage((message, sendOptions) => inner.send(message, sendOptions), deps, answerer);
    // Ready when `notifications/initialized` arrives, not only when the SDK runs its handler
    // for it (`oninitialized`, a microtask later): a tools/call read right behind it (over
    // --stdio the held messages are replayed together) runs a synchronous handler at once, and
    // a plugin notifying the caller's own session from it must find that session ready.
    const markReady: GateStage = (message) => {
      if ('method' in message && message.method === 'notifications/initialized' && !('id' in message)) session.ready = true;
      return false;
    };
    return new InboundGate(inner, [refuseModernRequests(inner), toolCalls.receive, paramsStage(inner, 'legacy'), markReady], asLegacyResponse);
  });
  const client = sessionClientLink(server, session, deps.log);
  // Read when asked rather than set at `initialized`: over --stdio the held `initialize` and
  // `initialized` are replayed together, and the SDK runs the notification's handler first.
  Object.defineProperties(session, {
    client: { enumerable: true, get: () => server.getClientVersion()?.name },
    identity: { enumerable: true, get: () => options.identity ?? server.getClientVersion()?.name ?? session.peer },
  });
  server.oninitialized = () => {
    session.ready = true;
  };
  session.notify = (notification) => {
    // Custom methods (claude/channel) are outside the SDK's ServerNotification union.
    server.notification(notification as Parameters<Server['notification']>[0]).catch((err: unknown) => {
      deps.log.debug({ err, session: session.id, method: notification.method }, 'notification not sent');
    });
  };
  // The level is kept on the session, where the notifier filters by it (the SDK keeps its own
  // copy only for its sendLoggingMessage, which the gateway does not use).
  server.setRequestHandler('logging/setLevel', (request) => {
    session.logLevel = request.params.level;
    return {};
  });
  const endSubscriptions = serveResourceSubscriptions(server, deps, session, allowsPlugin);
  server.onclose = () => {
    toolCalls?.cancelAll();
    endSubscriptions();
    deps.sessions.close(session.id);
  };
  server.onerror = (err) => deps.log.debug({ err, session: session.id }, 'MCP session error');
  return { server, session };
}
