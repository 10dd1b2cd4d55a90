// Who a call acts as. A session binds to one agent (collab_join) and then acts as it; a caller
// without a session (a 2026-07-28 client, REST) passes the signed handle collab_join gave it,
// or (REST) names the agent in its arguments; an API key pinned to an agent (config keyAgents)
// acts only as that agent, and that agent is acted as only by its key.
import type { CallContext, Caller } from '@mcp-gateway/core';
import { AgentHandles } from './agent-handles.js';
import type { CollabContext, CollabStore } from './context.js';
import { nowIso, RESERVED_AGENT_NAMES } from './model.js';
import { markAgentSeen } from './store/agent-store.js';

/** The owner key's name (core's `owner`): it may act as any agent. */
const OWNER_KEY = 'owner';
/** How often a call refreshes its agent's last_seen_at at most: one write per agent per interval, not per call. */
const TOUCH_INTERVAL_MS = 5000;

export class AgentIdentity {
  readonly #ctx: CollabContext;
  readonly #store: CollabStore;
  readonly handles: AgentHandles;
  /** The agent a call proved with its handle, for that call's banner (the caller object lives as long as the call). */
  readonly #proven = new WeakMap<Caller, string>();
  /** Agents some caller acted as through a handle on this gateway: their banners are worked out here. */
  readonly #handleUsers = new Set<string>();
  /** Session id → agent, for this gateway's sessions. */
  readonly #bySession = new Map<string, string>();
  /** Agent → the key it is pinned to (the reverse of keyAgents). */
  readonly #pinnedTo = new Map<string, string>();
  readonly #lastTouch = new Map<string, number>();
  /** Agent → its last call on this gateway, every call (last_seen_at is written at most every TOUCH_INTERVAL_MS). */
  readonly #lastCall = new Map<string, number>();

  constructor(ctx: CollabContext, store: CollabStore, handles: AgentHandles) {
    this.#ctx = ctx;
    this.#store = store;
    this.handles = handles;
    for (const [key, agent] of Object.entries(ctx.config.keyAgents)) this.#pinnedTo.set(agent, key);
    ctx.sessions.onClose((sessionId) => this.#bySession.delete(sessionId));
    // Any successful MCP call of an agent's session — another plugin's tool, a collab read — is a
    // sign of life: the watchdog must not take an agent that edits files for minutes offline.
    ctx.sessions.resultNote((caller) => {
      const agent = this.agentOfCaller(caller);
      if (agent !== undefined) this.touch(agent).catch(() => {}); // throttled; an unknown agent is no news here
      return undefined;
    });
  }

  /** The agent a session acts as, if it joined. */
  boundAgent(sessionId: string | undefined): string | undefined {
    return sessionId === undefined ? undefined : this.#bySession.get(sessionId);
  }

  /** This gateway's open sessions bound to `agent`. */
  sessionsOf(agent: string): string[] {
    const ids: string[] = [];
    for (const [session, bound] of this.#bySession) if (bound === agent) ids.push(session);
    return ids;
  }

  /** Every bound session of this gateway with its agent. */
  boundSessions(): IterableIterator<[session: string, agent: string]> {
    return this.#bySession.entries();
  }

  /** The agent a caller's API key is pinned to, if any. */
  pinnedAgent(call: CallContext): string | undefined {
    const key = call.caller.keyName;
    return key === undefined ? undefined : this.#ctx.config.keyAgents[key];
  }

  /** Whether news for `agent` can reach anyone here: a session bound to it, a key pinned to it, a caller with its handle. */
  reachable(agent: string): boolean {
    return this.#pinnedTo.has(agent) || this.#handleUsers.has(agent) || this.sessionsOf(agent).length > 0;
  }

  /** The agent that a call's banner and notifications are for: its session's, else its handle's, else its key's. */
  agentOfCaller(caller: Caller): string | undefined {
    const bound = this.boundAgent(caller.sessionId) ?? this.#proven.get(caller);
    if (bound !== undefined) return bound;
    return caller.keyName === undefined ? undefined : this.#ctx.config.keyAgents[caller.keyName];
  }

  /**
   * The agent a call's `agent` argument stands for, if the call may act as it: the agent of a
   * handle (COLLAB_HANDLE_INVALID unless made for this caller and still good), or the name.
   */
  named(call: CallContext, named: string): string {
    if (!AgentHandles.isHandle(named)) {
      this.checkMayActAs(call, named);
      return named;
    }
    const agent = this.handles.agentOf(named, call.caller);
    this.checkMayActAs(call, agent);
    this.#proven.set(call.caller, agent);
    // Banners ride on MCP results only: a REST caller's handle makes none to work out.
    if (call.caller.transport !== 'rest') this.#handleUsers.add(agent);
    return agent;
  }

  /** Refuses a name no agent may take (COLLAB_AGENT_NAME_RESERVED). The pattern is the schema's. */
  checkName(name: string): void {
    if ((RESERVED_AGENT_NAMES as readonly string[]).includes(name)) {
      throw this.#ctx.error('COLLAB_AGENT_NAME_RESERVED', `"${name}" is reserved (${RESERVED_AGENT_NAMES.join(', ')} address groups or the gateway): choose another agent name.`);
    }
  }

  /**
   * Throws COLLAB_NOT_PERMITTED unless this call may act as `agent`: not while its session is
   * bound to another, not with a key pinned to another, and a pinned agent only with its key.
   */
  checkMayActAs(call: CallContext, agent: string): void {
    const bound = this.boundAgent(call.caller.sessionId);
    if (bound !== undefined && bound !== agent) {
      throw this.#ctx.error('COLLAB_NOT_PERMITTED', `This session acts as "${bound}" (collab_join); it cannot act as "${agent}". Leave agent out, or open another session.`, { bound, agent });
    }
    this.checkKeyRights(call, agent);
  }

  /**
   * The API-key half of checkMayActAs, for registering another agent (a joined driver may
   * register its workers): a pinned key only its agent, a pinned agent only by its key.
   */
  checkKeyRights(call: CallContext, agent: string): void {
    const pinned = this.pinnedAgent(call);
    if (pinned !== undefined && pinned !== agent) {
      throw this.#ctx.error('COLLAB_NOT_PERMITTED', `The API key "${call.caller.keyName}" is pinned to agent "${pinned}" (plugins.collab.config.keyAgents); it cannot act as "${agent}".`, { pinned, agent });
    }
    const owner = this.#pinnedTo.get(agent);
    if (owner !== undefined && call.caller.keyName !== owner && call.caller.keyName !== OWNER_KEY) {
      throw this.#ctx.error('COLLAB_NOT_PERMITTED', `Agent "${agent}" belongs to the API key "${owner}" (plugins.collab.config.keyAgents): only that key acts as it.`, { agent });
    }
  }

  /**
   * The agent a call acts as: `named` (the tool's agent argument: a handle or a name) if it
   * may, else the one its session joined as, else its key's. It must be registered
   * (COLLAB_AGENT_NOT_FOUND); its last_seen_at is refreshed, and an offline agent is idle again.
   */
  async acting(call: CallContext, named?: string): Promise<string> {
    const agent = named === undefined ? this.agentOfCaller(call.caller) : this.named(call, named);
    if (agent === undefined) {
      throw this.#ctx.error(
        'COLLAB_AGENT_REQUIRED',
        'Which agent acts? Call collab_join first: an MCP session is then bound to the agent; a client without a session (2026-07-28 MCP, REST) passes the agent_handle it returns as agent in every call.',
      );
    }
    if (named === undefined) this.checkMayActAs(call, agent);
    await this.touch(agent);
    return agent;
  }

  /** Binds the call's session to `agent` (COLLAB_ALREADY_JOINED if it is bound to another). Callers without a session bind nothing. */
  bind(call: CallContext, agent: string): void {
    this.checkBindable(call, agent);
    const session = call.caller.sessionId;
    // A session that closed while its join was under way would never be unbound.
    if (session !== undefined && this.#ctx.sessions.isOpen(session)) this.#bySession.set(session, agent);
  }

  /** Throws COLLAB_ALREADY_JOINED when the call's session acts as another agent already. */
  checkBindable(call: CallContext, agent: string): void {
    const bound = this.boundAgent(call.caller.sessionId);
    if (bound !== undefined && bound !== agent) {
      throw this.#ctx.error('COLLAB_ALREADY_JOINED', `This session acts as "${bound}" already; a session binds once. Open another session to act as "${agent}".`, { bound });
    }
  }

  /**
   * Marks `agent` as seen now (at most once per TOUCH_INTERVAL_MS), bringing it back from
   * offline. Throws COLLAB_AGENT_NOT_FOUND for an agent nobody registered.
   */
  async touch(agent: string): Promise<void> {
    const now = Date.now();
    const last = this.#lastTouch.get(agent);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) {
      this.#lastCall.set(agent, now);
      return;
    }
    if (!(await markAgentSeen(this.#store.db, agent, nowIso(now)))) {
      this.#lastTouch.delete(agent);
      throw this.#ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${agent}": register it first (collab_join or collab_register_agent).`, { agent });
    }
    this.#lastTouch.set(agent, now);
    this.#lastCall.set(agent, now);
  }

  /** Records a call of a registered agent that did not go through `touch` (collab_join). */
  seen(agent: string, now: number = Date.now()): void {
    this.#lastCall.set(agent, now);
  }

  /** When `agent` last made a collab call on this gateway: a worker's heartbeat, to the second. */
  lastCall(agent: string): number | undefined {
    return this.#lastCall.get(agent);
  }
}
