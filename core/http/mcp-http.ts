import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { Principal } from '../auth/api-keys.js';
import { callerView, chooseProfile } from '../catalog/caller-view.js';
import type { HttpConfig } from '../config/config.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import type { Profile } from '../catalog/profiles.js';
import type { Gateway } from '../gateway/gateway.js';
import type { McpFace } from '../mcp/mcp-face.js';
import { admitJsonRequest, type HttpAdmission } from './http-admission.js';
import type { HttpGuard } from './http-guard.js';
import { errorAnswer, JSON_CONTENT_TYPE, sendError, writeAnswer, type HttpHeaders } from './http-reply.js';
import { clientAddressGroup } from './client-address.js';
import { modernMcpHttp } from './mcp-modern-http.js';
import { MODERN_REVISION } from '../mcp/era-claim.js';

/** What this file uses of the gateway. */
export type McpHttpGateway = Pick<Gateway, 'errors' | 'listChanges' | 'log' | 'profiles' | 'prompts' | 'resources' | 'subscriptions' | 'version'>;

const MCP_PATH = '/mcp';
/** `/mcp/<profile>`: the same MCP endpoint serving one profile (core/catalog/profiles.ts). */
const PROFILE_PATH = `${MCP_PATH}/:profile`;

/**
 * The profile a `/mcp…` URL names: undefined for `/mcp`, null for a URL that is not an MCP
 * endpoint. Never decoded: a profile name is `[a-z0-9-]`, so an escape names none, and a
 * malformed one (`%E0`) must not throw on the server's request path.
 */
export function endpointProfile(url: string): string | undefined | null {
  const path = url.split('?', 1)[0]!;
  if (path === MCP_PATH) return undefined;
  if (!path.startsWith(`${MCP_PATH}/`)) return null;
  const name = path.slice(MCP_PATH.length + 1);
  return name === '' || name.includes('/') ? null : name;
}

/**
 * The fastify request hooks of `/mcp` that the fast path (`McpRoutes.post`) does itself, by
 * hook and function name, as rest-calls.ts's MIRRORED_HOOKS: test/core/http/fast-path-hooks.test.ts
 * fails when a hook is added to the route and not listed (and mirrored) here.
 */
export const MCP_MIRRORED_HOOKS: Readonly<Record<string, readonly string[]>> = { onRequest: ['admitRequest'] };

/** What registerMcpRoutes gives the HTTP server. */
export interface McpRoutes {
  /**
   * `POST /mcp` of an open session (an `Mcp-Session-Id` and a JSON body), served on node's
   * HTTP server ahead of fastify, as rest-calls.ts serves REST calls: fastify's per-request
   * machinery cost more than the rest of the gateway's share of a trivial call. It does what
   * fastify's route does for such a request (the admission, the body rules, the session and
   * key checks, the same answers) and hands the body to the same SDK transport. A 2026-07-28
   * request (no session, `Mcp-Protocol-Version: 2026-07-28`) is served here too, after the same
   * admission, by the SDK's era entry. Anything else returns false and goes to fastify.
   */
  readonly post: (req: IncomingMessage, res: ServerResponse) => boolean;
}

interface HttpSession {
  readonly transport: NodeStreamableHTTPServerTransport;
  /** The API key that opened it; later requests must come with the same one. */
  readonly keyName?: string;
  /** Whose share of maxMcpSessionsPerKey it counts against: the key, or the client address. */
  readonly owner: string;
  /** The profile its endpoint named (`/mcp/<profile>`); later requests must come to the same one. */
  readonly endpoint: string | undefined;
  lastSeen: number;
}

/**
 * MCP Streamable HTTP at `/mcp`: one SDK transport and Server per session, keyed by the
 * `Mcp-Session-Id` the gateway assigns at initialize. POST carries requests, GET opens the
 * server-to-client stream, DELETE ends the session. A session that sends no request for
 * `mcpSessionIdleMs` is closed, an open GET stream included (a client that vanished never
 * sends DELETE, and a held stream would otherwise keep it for ever). Sessions are capped in
 * all and per API key (per client address with `auth: none`). A request without a session
 * that claims the 2026-07-28 revision is answered on its own (mcp-modern-http.ts).
 */
export function registerMcpRoutes(app: FastifyInstance, gateway: McpHttpGateway, face: McpFace, guard: HttpGuard, admission: HttpAdmission, config: HttpConfig): McpRoutes {
  const sessions = new Map<string, HttpSession>();
  /** Sessions per owner, those whose initialize is being handled included. */
  const perOwner = new Map<string, number>();
  /** Sessions whose initialize is being handled: not in the map yet, but they count. */
  let opening = 0;
  const release = (owner: string) => {
    const left = (perOwner.get(owner) ?? 1) - 1;
    if (left === 0) perOwner.delete(owner);
    else perOwner.set(owner, left);
  };
  const jsonRpcError = (reply: FastifyReply, error: GatewayError) => sendError(reply, error, gateway.errors, true);

  const modern = modernMcpHttp(gateway, face, config.bodyLimitBytes, config.maxMcpSessions);
  const sweep = setInterval(() => {
    const cutoff = Date.now() - config.mcpSessionIdleMs;
    for (const [id, session] of sessions) {
      if (session.lastSeen < cutoff) {
        sessions.delete(id);
        void session.transport.close();
      }
    }
  }, Math.min(config.mcpSessionIdleMs / 4, 60_000));
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()).concat(modern.close()));
    sessions.clear();
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const guarded = guard.check(request.raw);
    const principal = guarded.ok ? guarded.principal : undefined;
    const endpoint = (request.params as { profile?: string }).profile;
    if (endpoint !== undefined && !gateway.profiles.get(endpoint)) return jsonRpcError(reply, gateway.profiles.notFound(endpoint));
    const id = request.headers['mcp-session-id'];
    let session: HttpSession | undefined;
    if (typeof id === 'string') {
      const found = sessionFor(id, principal, endpoint);
      if (isGatewayError(found)) return jsonRpcError(reply, found);
      session = found;
    } else if (request.method === 'POST' && (await modern.claims(request.raw, request.body))) {
      const profile = profileOrError(endpoint, principal);
      if (isGatewayError(profile)) return jsonRpcError(reply, profile);
      reply.hijack();
      await modern.serve(request.raw, reply.raw, request.body, { transport: 'http', peer: request.ip, identity: principal?.name, view: callerView(principal, profile) });
      return;
    } else if (request.method === 'POST' && isInitializeRequest(request.body)) {
      const profile = profileOrError(endpoint, principal);
      if (isGatewayError(profile)) return jsonRpcError(reply, profile);
      if (sessions.size + opening >= config.maxMcpSessions) {
        return jsonRpcError(reply, new GatewayError('CONNECTION_LIMIT', `This gateway serves at most ${config.maxMcpSessions} MCP sessions over HTTP; retry later.`));
      }
      // Keyless (auth: none): every loopback address is one client, as for the connection caps.
      const owner = principal ? `key:${principal.name}` : `ip:${clientAddressGroup(request.ip)}`;
      // At its share, a key's least recently used session makes room: clients often vanish
      // without DELETE (the SDK client's close() sends none), and every local client shares
      // the owner key, so refusing would lock the owner out until the idle sweep.
      if ((perOwner.get(owner) ?? 0) >= config.maxMcpSessionsPerKey && !(await closeOldestOf(owner))) {
        const whose = principal ? `the API key "${principal.name}"` : 'one client address';
        return jsonRpcError(reply, new GatewayError('CONNECTION_LIMIT', `At most ${config.maxMcpSessionsPerKey} MCP sessions over HTTP for ${whose}, all still opening; retry later.`));
      }
      perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
      opening++;
      try {
        session = await openSession(principal, owner, request.ip, endpoint, profile);
      } catch (err) {
        release(owner);
        throw err;
      } finally {
        opening--;
      }
    } else {
      return jsonRpcError(reply, new GatewayError('INVALID_REQUEST', 'No Mcp-Session-Id header: a 2025-era session begins with initialize, and a 2026-07-28 request names its protocol version in params._meta.'));
    }
    const isNew = typeof id !== 'string';
    reply.hijack();
    await serve(session, request.raw, reply.raw, request.body, isNew);
  };

  /** Hands a request to its session's SDK transport; fastify's and the fast path's routes end here. */
  async function serve(session: HttpSession, req: IncomingMessage, res: ServerResponse, body: unknown, isNew: boolean): Promise<void> {
    session.lastSeen = Date.now();
    try {
      await session.transport.handleRequest(req, res, body);
    } catch (err) {
      // Nothing else answers this request (fastify's is hijacked): answer it here, or it hangs.
      gateway.log.error({ err }, 'MCP over HTTP failed');
      if (!res.headersSent) {
        writeAnswer(res, errorAnswer(new GatewayError('INTERNAL_ERROR', 'Internal error; the gateway log has the details.'), gateway.errors, true));
      } else {
        res.end();
      }
    }
    // The SDK can still refuse an initialize (a wrong Accept header, say) after the session's
    // Server was connected: close it, or it would count as open for ever.
    if (isNew && session.transport.sessionId === undefined) await session.transport.close();
  }

  /** The profile a request without a session gets (its endpoint's, its key's), or why it gets none. */
  function profileOrError(endpoint: string | undefined, principal: Principal | undefined): Profile | GatewayError {
    try {
      return chooseProfile(gateway.profiles, endpoint, principal, gateway.profiles.default);
    } catch (err) {
      if (isGatewayError(err)) return err;
      throw err;
    }
  }

  /** The session a request names, or why it may not use it. */
  function sessionFor(id: string, principal: Principal | undefined, endpoint: string | undefined): HttpSession | GatewayError {
    const session = sessions.get(id);
    if (!session) return new GatewayError('SESSION_NOT_FOUND', `Session ${id.slice(0, 64)} is unknown or expired; send initialize to start a new one.`);
    if (session.endpoint !== endpoint) {
      const opened = session.endpoint === undefined ? MCP_PATH : `${MCP_PATH}/${session.endpoint}`;
      return new GatewayError('SESSION_NOT_FOUND', `Session ${id.slice(0, 64)} was opened at ${opened}; send its requests there.`);
    }
    if (session.keyName !== principal?.name) return new GatewayError('FORBIDDEN', 'This session belongs to another API key.');
    return session;
  }

  /** Closes the least recently used open session of `owner`; false when it has none open. */
  async function closeOldestOf(owner: string): Promise<boolean> {
    let oldest: [string, HttpSession] | undefined;
    for (const entry of sessions) if (entry[1].owner === owner && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    if (!oldest) return false;
    sessions.delete(oldest[0]);
    gateway.log.info({ session: oldest[0] }, 'MCP session closed to make room for a new one of the same key');
    // Its onclose gives the owner's slot back.
    await oldest[1].transport.close();
    return true;
  }

  async function openSession(principal: Principal | undefined, owner: string, ip: string, endpoint: string | undefined, profile: Profile): Promise<HttpSession> {
    const keyName = principal?.name;
    const sessionId = randomUUID();
    const transport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    const session: HttpSession = { transport, keyName, owner, endpoint, lastSeen: Date.now() };
    let closed = false;
    transport.onclose = () => {
      sessions.delete(sessionId);
      if (!closed) release(owner);
      closed = true;
    };
    await face.connect(transport, { transport: 'http', sessionId, peer: ip, identity: keyName, view: callerView(principal, profile) });
    return session;
  }

  const route = { schema: { hide: true } };
  for (const path of [MCP_PATH, PROFILE_PATH]) {
    app.post(path, route, handle);
    app.get(path, route, handle);
    app.delete(path, route, handle);
  }

  const { errors, log } = gateway;
  const answer = (res: ServerResponse, error: GatewayError, headers?: HttpHeaders) => writeAnswer(res, errorAnswer(error, errors, true), headers);
  const post = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url!;
    const endpoint = endpointProfile(url);
    // An unknown profile goes to fastify's route, which answers PROFILE_NOT_FOUND.
    if (req.method !== 'POST' || endpoint === null || (endpoint !== undefined && !gateway.profiles.get(endpoint))) return false;
    const id = req.headers['mcp-session-id'];
    const contentType = req.headers['content-type'];
    if (contentType === undefined || !JSON_CONTENT_TYPE.test(contentType)) return false;
    // A 2026-07-28 request says so in its header (the SDK's era entry checks that its body agrees).
    if (id === undefined && req.headers['mcp-protocol-version'] === MODERN_REVISION) {
      admitJsonRequest(req, admission, MCP_PATH, config.bodyLimitBytes, (error, headers) => answer(res, error, headers), (body, admitted) => {
        const { principal } = admitted;
        const profile = profileOrError(endpoint, principal);
        if (isGatewayError(profile)) return answer(res, profile, admitted.headers);
        modern.serve(req, res, body, { transport: 'http', peer: req.socket.remoteAddress, identity: principal?.name, view: callerView(principal, profile) }).catch((err: unknown) => log.error({ err }, 'MCP over HTTP failed'));
      });
      return true;
    }
    if (typeof id !== 'string') return false;

    // As fastify answers: the rate limit's headers go with a refusal (a hijacked reply drops them).
    admitJsonRequest(req, admission, MCP_PATH, config.bodyLimitBytes, (error, headers) => answer(res, error, headers), (body, admitted) => {
      const found = sessionFor(id, admitted.principal, endpoint);
      if (isGatewayError(found)) {
        answer(res, found, admitted.headers);
        return;
      }
      serve(found, req, res, body, false).catch((err: unknown) => log.error({ err }, 'MCP over HTTP failed'));
    });
    return true;
  };
  return { post };
}
