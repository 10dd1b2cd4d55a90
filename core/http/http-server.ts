import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import { answerExplorerLogin } from './explorer-login.js';
import { attachEventStream } from './events-socket.js';
import type { Gateway } from '../gateway/gateway.js';
import { HttpAdmission } from './http-admission.js';
import { capConnections } from './http-connections.js';
import { HttpGuard } from './http-guard.js';
import { fromHttpError, parseJsonBody, sendError } from './http-reply.js';
import { endpointProfile, registerMcpRoutes } from './mcp-http.js';
import { mcpFace } from '../mcp/mcp-face.js';
import { registerPluginRoutes } from './plugin-routes.js';
import { attachPluginSockets } from './plugin-sockets.js';
import { registerPluginStatic } from './plugin-static.js';
import { documentOptions } from './openapi-document.js';
import { serverUrl, withServers } from './openapi.js';
import { registerHealthRoutes } from './health-routes.js';
import { gatewayMetrics } from './metrics.js';
import { LiveToolDocument } from './openapi-live.js';
import { restCallPath } from './rest-calls.js';
import { registerRestRoutes } from './rest-routes.js';
import { registerProfileRoutes } from './profile-routes.js';
import { registerContentRoutes } from './rest-content.js';
import { refuseExposedWithoutAuth } from '../mcp/socket-server.js';

export interface HttpListener {
  readonly address: { kind: 'http'; host: string; port: number };
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * The HTTP face of a gateway: REST bridge, OpenAPI document and explorer, MCP Streamable
 * HTTP, health, metrics and the event stream. Returned ready but not listening, so tests
 * can `inject` requests.
 */
export async function createHttpApp(gateway: Gateway, config: HttpConfig = gateway.config.transports.http): Promise<FastifyInstance> {
  const { errors } = gateway;
  const guard = new HttpGuard(config, config.host, gateway.keys);
  const admission = new HttpAdmission(guard, config.rateLimit);
  const restCall = restCallPath(gateway, admission, config.bodyLimitBytes);
  const metrics = gatewayMetrics(gateway);
  const app = Fastify({
    logger: false,
    bodyLimit: config.bodyLimitBytes,
    forceCloseConnections: true,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    // Node checks the headers and request timeouts on this interval (30 s by default, which
    // would let a slow-loris connection live three times the headers timeout).
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs) },
    // Errors the router raises before any route or hook: a path fastify cannot decode, or a
    // path parameter (a tool name) over its length cap. Fastify's own answer would echo the
    // whole URL back; ours is the usual envelope.
    frameworkErrors: (err, request, reply) => {
      const path = request.url.split('?')[0]!;
      const error = path.startsWith('/tools/')
        ? new GatewayError('UNKNOWN_TOOL', 'No tool has that name. GET /tools lists the tools.')
        : new GatewayError('NOT_FOUND', `No route for that path (${err.code}).`);
      return sendError(reply, error, errors);
    },
  });

  // Validation happens in the catalog, the same for every transport; route schemas here only
  // describe the API. Responses are sent as they are: a response schema would make fastify
  // drop properties it does not list.
  app.setValidatorCompiler(() => () => true);
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Only JSON bodies (text/plain would otherwise reach tools as a string), parsed exactly as
  // the socket transports parse them.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error);
    }
  });

  // Once closing (the first preClose hook, ahead of those that wait for clients), every
  // request goes to fastify, which answers 503 and closes the connection.
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });

  app.setErrorHandler((err, request, reply) => {
    const error = fromHttpError(err, config.bodyLimitBytes);
    if (error.code === 'INTERNAL_ERROR') gateway.log.error({ err, url: request.url }, 'HTTP request failed');
    return sendError(reply, error, errors, isMcpPath(request.url));
  });
  app.setNotFoundHandler((request, reply) => sendError(reply, notFound(request.method, request.url), errors));

  // Host/Origin and key checks, then the rate limit (HttpAdmission). Callback style: an async
  // hook costs a promise and a microtask on every request. A reply sent from a hook ends the
  // request there; done() would run the route as well.
  app.addHook('onRequest', function admitRequest(request, reply, done) {
    const path = request.url.split('?')[0]!;
    const admitted = admission.admit(request.raw, path);
    if (admitted.headers) reply.headers(admitted.headers);
    if (!admitted.ok) {
      sendError(reply, admitted.error, errors, isMcpPath(path));
      return;
    }
    // After the Host check and the rate limit, like every other route.
    const login = guard.keys.required ? answerExplorerLogin(request, reply, guard.keys) : false;
    if (login === true) return;
    if (login) {
      sendError(reply, login, errors);
      return;
    }
    done();
  });

  await app.register(swagger, { openapi: documentOptions(gateway, guard.keys.required) });
  // Tools added or removed at run time have no fastify route of their own to document.
  const toolDocument = new LiveToolDocument(gateway, guard.keys.required);
  const stopFollowing = gateway.catalog.onChange(() => toolDocument.changed());
  app.addHook('onClose', (_app, done) => {
    stopFollowing();
    done();
  });
  // The explorer sends "Try it out" requests to the origin it was loaded from: the listening
  // address may be another name for it (127.0.0.1 for localhost), and a cross-origin call fails.
  await app.register(swaggerUi, { routePrefix: '/docs', transformSpecification: (document) => withServers(toolDocument.latest(document), '/') });

  const wholeDocument = async () => withServers(await toolDocument.current(app.swagger()), serverUrl(config.host, app.server.address()));
  app.get('/openapi.json', { schema: { hide: true } }, wholeDocument);
  registerProfileRoutes(app, gateway, wholeDocument);
  registerHealthRoutes(app, gateway);
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) =>
    reply.type(metrics.contentType).send(await metrics.metrics()),
  );
  app.get('/events', { schema: { hide: true } }, (_request, reply) =>
    sendError(reply, new GatewayError('UPGRADE_REQUIRED', '/events is a WebSocket: connect with a WebSocket client, e.g. ws://127.0.0.1:9101/events.'), errors),
  );
  registerRestRoutes(app, gateway, guard);
  registerContentRoutes(app, gateway, guard);
  const mcp = registerMcpRoutes(app, gateway, await mcpFace(gateway), guard, admission, config);
  attachEventStream(app, gateway, guard, config.events);
  // Plugin routes, static files and WebSockets under /plugins/<name>/ (ctx.http).
  registerPluginRoutes(app, gateway, guard, config);
  registerPluginStatic(app, gateway, guard);
  attachPluginSockets(app, gateway, admission, config.pluginSockets);
  capConnections(app.server, config);
  await app.ready();
  // REST tool calls and the MCP requests of open sessions are answered before fastify sees
  // them (rest-calls.ts, mcp-http.ts). (Not through fastify's serverFactory: with one, fastify
  // does not also listen on ::1 for "localhost".)
  const routes = app.server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  app.server.removeAllListeners('request');
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (closing || !(restCall(req, res) || mcp.post(req, res))) for (const route of routes) route.call(app.server, req, res);
  });
  return app;
}

/**
 * Starts the HTTP face on `config.host:config.port`, as a part of the gateway's lifecycle: a
 * shutdown that begins meanwhile closes it (or stops it before it listens).
 */
export async function listenHttp(gateway: Gateway, config: HttpConfig = gateway.config.transports.http): Promise<HttpListener> {
  refuseExposedWithoutAuth(gateway, 'HTTP', config.host);
  const { lifecycle } = gateway;
  const listener = await lifecycle.start(
    'http',
    async () => {
      const app = await createHttpApp(gateway, config);
      try {
        await lifecycle.checkpoint('http-app-built');
        await app.listen({ host: config.host, port: config.port });
      } catch (err) {
        await app.close();
        throw err;
      }
      const info = app.server.address();
      const port = typeof info === 'object' && info ? info.port : config.port;
      const address = { kind: 'http' as const, host: config.host, port };
      gateway.log.info({ transport: 'http', address }, 'listening');
      const forget = gateway.listening.add(address);
      let closing: Promise<void> | undefined;
      return {
        address,
        app,
        close: () => {
          forget();
          return (closing ??= app.close());
        },
      };
    },
    (started) => started.close(),
  );
  await lifecycle.checkpoint('http-listening');
  return listener;
}

/** `/mcp` and `/mcp/<profile>`, whose refusals are JSON-RPC errors. */
function isMcpPath(url: string): boolean {
  return endpointProfile(url) !== null;
}

/**
 * The paths of MCP's deprecated HTTP+SSE transport (protocol 2024-11-05), as SDK servers
 * mounted it: the gateway does not serve it (docs/rest.md, "Old clients"), and a client that
 * tries it is told where to go instead of only that the path is unknown.
 */
const LEGACY_SSE_PATHS = new Set(['/sse', '/messages', '/message']);

function notFound(method: string, url: string): GatewayError {
  const path = url.split('?', 1)[0]!;
  if (LEGACY_SSE_PATHS.has(path)) {
    return new GatewayError('NOT_FOUND', `The HTTP+SSE transport (MCP 2024-11-05, deprecated) is not served: connect to /mcp, which speaks Streamable HTTP.`);
  }
  return new GatewayError('NOT_FOUND', `No route ${method} ${url.slice(0, 200)}. GET /openapi.json lists the routes.`);
}
