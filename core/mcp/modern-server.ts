import { MissingRequiredClientCapabilityError, type Server, type Transport } from '@modelcontextprotocol/server';
import type { GatewayError } from '../contract/errors.js';
import type { Caller } from '../contract/plugin-types.js';
import { InboundGate } from './inbound-gate.js';
import { callBinding, InputRound } from '../sessions/input-round.js';
import type { RequestAsking } from './mcp-content.js';
import { toolCallStage, type Send } from './call-stage.js';
import { catalogServer, paramsStage, SERVER_CAPABILITIES, serverInfo, type McpSessionDeps, type McpSessionOptions } from './mcp-session.js';
import { modernToolCalls } from './modern-call-stage.js';
import { TASKS_EXTENSION } from '../tasks/tasks.js';
import { clientNameOf, requestClientLink } from '../sessions/request-client-link.js';
import type { RequestContext } from '../sessions/input-round.js';
import { serveToolCalls, type ModernToolCallHost } from './sdk-tool-calls.js';
import { serveTaskRequests } from './task-requests.js';

/** Who sends the requests and what they may see and call, as for a 2025 session; there is no session id. */
export type ModernServerOptions = Omit<McpSessionOptions, 'sessionId'>;

/**
 * A Server for 2026-07-28 requests, which the SDK's era entries mark as serving that revision
 * and connect: one per request on HTTP (`createMcpHandler`), one per connection on a stream
 * (`serveStdio`). Its callers have no session id, as a REST caller has none (`modernCallers`).
 * A tools/call, prompts/get or resources/read asks the client in rounds (input-round.ts), whose
 * requestState the SDK checks with the gateway's codec before the handler runs. A plain
 * tools/call is answered ahead of the SDK, on the gate's stage (modern-call-stage.ts); the rest
 * of them (rounds, tasks) go through the SDK's handler.
 */
export function modernServer(deps: McpSessionDeps, options: ModernServerOptions): Server {
  const callers = modernCallers(deps, options, () => server.getClientVersion()?.name);
  const toolCalls = toolCallHost(deps, options, callers);
  const gate = (inner: Transport) => {
    const send: Send = (message, sendOptions) => inner.send(message, sendOptions);
    const stage = toolCallStage(send, deps, modernToolCalls(toolCalls, send, serverInfo(deps.version)));
    // Chained before the gate takes the transport's handlers: its end cancels the calls in flight.
    const { onclose } = inner;
    inner.onclose = () => {
      onclose?.();
      stage.cancelAll();
    };
    return new InboundGate(inner, [paramsStage(inner, 'modern'), stage.receive]);
  };
  const server = catalogServer(deps, options.view ?? {}, callers, gate, {
    requestState: { verify: deps.requestStates.verify },
    // The tasks extension is the 2026 revision's: a 2025 session's initialize does not offer it.
    capabilities: { ...(deps.capabilities ?? SERVER_CAPABILITIES), extensions: { [TASKS_EXTENSION]: {} } },
  });
  serveToolCalls(server, toolCalls);
  serveTaskRequests(server, deps.tasks, deps.errors, callers.owner);
  server.onerror = (err) => deps.log.debug({ err }, 'MCP request error');
  return server;
}

/**
 * The tools/call host of 2026-07-28 requests from one caller, without a Server: for `/mcp`, which
 * answers a plain call before the SDK's HTTP entry (http/mcp-modern-direct.ts). The caller is
 * the key, else the client the request's envelope names, else the peer.
 */
export function modernToolCallHost(deps: McpSessionDeps, options: ModernServerOptions): ModernToolCallHost {
  return toolCallHost(deps, options, modernCallers(deps, options, () => undefined));
}

/** Who a request's caller is, whose its rounds and tasks are, and how its calls ask the client. */
interface ModernCallers {
  readonly caller: (ctx?: RequestContext) => Caller;
  readonly owner: (ctx: RequestContext) => string;
  readonly asking: (ctx: RequestContext, method: string, target: string, args: unknown) => RequestAsking;
}

/**
 * The revision has no session: each request names its client in its own `_meta`, so the caller
 * is the key, else the client the request names (`clientName` when it names none: what the
 * SDK's Server was told), else the peer. A call asks in rounds (input-round.ts).
 */
function modernCallers(deps: McpSessionDeps, options: ModernServerOptions, clientName: () => string | undefined): ModernCallers {
  const keyName = options.identity === undefined ? {} : { keyName: options.identity };
  const caller = (ctx?: RequestContext): Caller => ({
    transport: options.transport,
    identity: options.identity ?? clientNameOf(ctx) ?? clientName() ?? options.peer,
    ...keyName,
  });
  // Whose a requestState or a task is: the key's name when a key came, else the name the caller goes by.
  const owner = (ctx: RequestContext) => {
    const who = caller(ctx);
    return who.keyName ?? who.identity ?? '';
  };
  const asking = (ctx: RequestContext, method: string, target: string, args: unknown): RequestAsking => {
    // Made on the first question, so that a call that asks nothing pays nothing; at once for a
    // retry, whose state must be checked before the call runs.
    let round: InputRound | undefined;
    const roundOf = () => (round ??= InputRound.open(ctx, () => callBinding(method, target, args, owner(ctx)), deps.requestStates, deps.errors));
    if (ctx.mcpReq.requestState() !== undefined) roundOf();
    return {
      client: requestClientLink(ctx, deps.log, roundOf),
      get asked() {
        return round?.asking ?? false;
      },
      inputRequired: (error) => (error.code === 'INPUT_REQUIRED' && round?.asking ? round.inputRequired() : undefined),
      refusal: capabilityRefusal,
    };
  };
  return { caller, owner, asking };
}

function toolCallHost(deps: McpSessionDeps, options: ModernServerOptions, callers: ModernCallers): ModernToolCallHost {
  const view = options.view ?? {};
  return {
    catalog: deps.catalog,
    errors: deps.errors,
    log: deps.log,
    allows: view.allows,
    profile: view.profile,
    caller: callers.caller,
    asking: (ctx, name, args) => callers.asking(ctx, 'tools/call', name, args),
    tasks: deps.tasks,
    owner: callers.owner,
    notes: (caller, tool) => deps.sessions.resultNotes(caller, tool),
  };
}

/**
 * A call that needed a capability the request does not declare (CLIENT_CAPABILITY_MISSING
 * names it in `details.capability`) gets the revision's -32021, whose
 * `data.requiredCapabilities` names it as a capabilities object.
 */
function capabilityRefusal(error: GatewayError): Error | undefined {
  if (error.code !== 'CLIENT_CAPABILITY_MISSING') return undefined;
  const capability = (error.details as { capability?: unknown } | undefined)?.capability;
  return typeof capability === 'string' ? new MissingRequiredClientCapabilityError({ requiredCapabilities: { [capability]: {} } }, error.message) : undefined;
}
