import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, isLegacyRequest, type AuthInfo } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import type { McpFace } from '../mcp/mcp-face.js';
import type { ModernServerOptions } from '../mcp/modern-server.js';
import { claimsModernEra } from '../mcp/era-claim.js';
import { admitListen, listenedUris } from '../mcp/listen-admission.js';
import { errorAnswer, writeAnswer } from './http-reply.js';
import { answerToolCallDirectly } from './mcp-modern-direct.js';

/** What this file uses of the gateway. */
export type ModernHttpGateway = Pick<Gateway, 'errors' | 'listChanges' | 'log' | 'prompts' | 'resources' | 'subscriptions' | 'version'>;

/** `/mcp` for 2026-07-28 requests: each answered on its own by a Server made for it. */
export interface ModernMcpHttp {
  /**
   * Whether a request that names no session is one of the 2026-07-28 revision, by the SDK's
   * rule: its `_meta` claims a revision (whichever; an unsupported one is answered by this
   * path), or its `Mcp-Protocol-Version` header names a 2026 revision. Everything else
   * (`initialize`, a GET or DELETE) is the 2025 era's.
   */
  claims(req: IncomingMessage, body: unknown): Promise<boolean>;
  /**
   * Answers one such request; the caller has hijacked the reply and admitted the request. A
   * plain tools/call is answered before the SDK's entry (mcp-modern-direct.ts).
   */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, options: ModernServerOptions): Promise<void>;
  close(): Promise<void>;
}

/**
 * The SDK's era entry (`createMcpHandler`) in strict mode, for the 2026 era only: the 2025 era
 * keeps the gateway's own sessions (mcp-http.ts), which the SDK's stateless fallback would not
 * serve. The entry checks each request's envelope and headers (`UnsupportedProtocolVersion`,
 * `HeaderMismatch`, a missing client capability), makes a Server for it with the gateway's
 * factory and stamps its result. Who is calling (the key the guard admitted, its view of the
 * catalog) reaches the factory as the request's `authInfo`, the SDK's channel for what the host
 * verified.
 */
export function modernMcpHttp(gateway: ModernHttpGateway, face: McpFace, maxRequestBodySize: number, maxSubscriptions: number): ModernMcpHttp {
  const handler = createMcpHandler(
    ({ authInfo }) => face.modernServer((authInfo?.extra as { options: ModernServerOptions }).options),
    // Listen streams are held open like sessions, and capped as they are (in all).
    { legacy: 'reject', maxRequestBodySize, maxSubscriptions, onerror: (err) => gateway.log.debug({ err }, 'MCP request refused or failed') },
  );
  const serveNode = toNodeHandler(handler, { maxRequestBodySize, onerror: (err) => gateway.log.error({ err }, 'MCP over HTTP failed') });
  // What 2025 sessions hear as notifications, `subscriptions/listen` streams hear through the entry's bus.
  const { notify } = handler;
  const stopListening = [
    gateway.listChanges.listen((kind) => (kind === 'tools' ? notify.toolsChanged() : kind === 'prompts' ? notify.promptsChanged() : notify.resourcesChanged())),
    gateway.subscriptions.listen((uri) => notify.resourceUpdated(uri)),
  ];
  return {
    async claims(req, body) {
      // The common case, decided without building a web Request: the SDK never calls a request
      // with the envelope legacy (an unsupported revision in it is this path's to answer).
      if (claimsModernEra(body)) return true;
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) for (const one of [value ?? []].flat()) headers.append(name, one);
      return !(await isLegacyRequest(new Request(`http://localhost${req.url ?? '/'}`, { method: req.method, headers }), body, { maxRequestBodySize }));
    },
    async serve(req, res, body, options) {
      if (answerToolCallDirectly(gateway, face, req, res, body, options)) return;
      // The entry answers subscriptions/listen itself: a listen that names resources is admitted
      // first, and holds them until its stream closes.
      const uris = listenedUris(body);
      if (uris) {
        const admitted = await admitListen(uris, gateway, options.view?.allowsPlugin);
        if ('refusal' in admitted) return writeAnswer(res, errorAnswer(admitted.refusal, gateway.errors, true));
        res.once('close', admitted.release);
      }
      const auth: AuthInfo = { token: '', clientId: options.identity ?? '', scopes: [], extra: { options } };
      return serveNode(Object.assign(req, { auth }), res, body);
    },
    close: () => {
      for (const stop of stopListening) stop();
      return handler.close();
    },
  };
}
