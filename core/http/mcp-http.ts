import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { pluginScope, toolScope, type Principal } from './api-keys.js';
import type { HttpConfig } from '../config.js';
import { GatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import type { HttpGuard } from './http-guard.js';
import { errorAnswer, sendError, writeAnswer } from './http-reply.js';

interface HttpSession {
  readonly transport: StreamableHTTPServerTransport;
  /** The API key that opened it; later requests must come with the same one. */
  readonly keyName?: string;
  /** Whose share of maxMcpSessionsPerKey it counts against: the key, or the client address. */
  readonly owner: string;
  lastSeen: number;
}

/**
 * MCP Streamable HTTP at `/mcp`: one SDK transport and Server per session, keyed by the
 * `Mcp-Session-Id` the gateway assigns at initialize. POST carries requests, GET opens the
 * server-to-client stream, DELETE ends the session. A session that sends no request for
 * `mcpSessionIdleMs` is closed, an open GET stream included (a client that vanished never
 * sends DELETE, and a held stream would otherwise keep it for ever). Sessions are capped in
 * all and per API key (per client address with `auth: none`).
 */
export function registerMcpRoutes(app: FastifyInstance, gateway: Gateway, guard: HttpGuard, config: HttpConfig): void {
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
    await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
    sessions.clear();
  });

  const handle = async (request: FastifyRequest, reply: FastifyReply) => {
    const guarded = guard.check(request.raw);
    const principal = guarded.ok ? guarded.principal : undefined;
    const id = request.headers['mcp-session-id'];
    let session: HttpSession | undefined;
    if (typeof id === 'string') {
      session = sessions.get(id);
      if (!session) return jsonRpcError(reply, new GatewayError('SESSION_NOT_FOUND', `Session ${id.slice(0, 64)} is unknown or expired; send initialize to start a new one.`));
      if (session.keyName !== principal?.name) return jsonRpcError(reply, new GatewayError('FORBIDDEN', 'This session belongs to another API key.'));
    } else if (request.method === 'POST' && isInitializeRequest(request.body)) {
      if (sessions.size + opening >= config.maxMcpSessions) {
        return jsonRpcError(reply, new GatewayError('CONNECTION_LIMIT', `This gateway serves at most ${config.maxMcpSessions} MCP sessions over HTTP; retry later.`));
      }
      const owner = principal ? `key:${principal.name}` : `ip:${request.ip}`;
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
        session = await openSession(principal, owner, request.ip);
      } catch (err) {
        release(owner);
        throw err;
      } finally {
        opening--;
      }
    } else {
      return jsonRpcError(reply, new GatewayError('INVALID_REQUEST', 'No Mcp-Session-Id header: the first request of a session must be initialize.'));
    }
    const isNew = typeof id !== 'string';
    const current = session;
    current.lastSeen = Date.now();
    reply.hijack();
    try {
      await current.transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (err) {
      // fastify can no longer answer a hijacked request: answer it here, or it hangs.
      gateway.log.error({ err }, 'MCP over HTTP failed');
      if (!reply.raw.headersSent) {
        writeAnswer(reply.raw, errorAnswer(new GatewayError('INTERNAL_ERROR', 'Internal error; the gateway log has the details.'), gateway.errors, true));
      } else {
        reply.raw.end();
      }
    }
    // The SDK can still refuse an initialize (a wrong Accept header, say) after the session's
    // Server was connected: close it, or it would count as open for ever.
    if (isNew && current.transport.sessionId === undefined) await current.transport.close();
  };

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

  async function openSession(principal: Principal | undefined, owner: string, ip: string): Promise<HttpSession> {
    const keyName = principal?.name;
    const sessionId = randomUUID();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
    });
    const session: HttpSession = { transport, keyName, owner, lastSeen: Date.now() };
    let closed = false;
    transport.onclose = () => {
      sessions.delete(sessionId);
      if (!closed) release(owner);
      closed = true;
    };
    await gateway.connect(transport, { transport: 'http', sessionId, peer: ip, identity: keyName, allows: toolScope(principal), allowsPlugin: pluginScope(principal) });
    return session;
  }

  const route = { schema: { hide: true } };
  app.post('/mcp', route, handle);
  app.get('/mcp', route, handle);
  app.delete('/mcp', route, handle);
}
