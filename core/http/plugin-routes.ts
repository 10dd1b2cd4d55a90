import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from './api-keys.js';
import type { HttpConfig } from '../config.js';
import { GatewayError, isGatewayError } from '../errors.js';
import type { Gateway } from '../gateway.js';
import type { HttpGuard } from './http-guard.js';
import { fromHttpError, sendError } from './http-reply.js';
import { describeSchemaErrors, type ValidateFunction } from '../catalog/schema.js';
import type { PreparedRoute } from './plugin-route-table.js';
import { pluginRouteSchema } from './plugin-route-schema.js';
import { isHttpResponse, responseProblem } from './route-response.js';
import type { RouteCaller, RouteRequest } from '../plugins/route-types.js';

/** Headers a plugin never sees: the caller's key belongs to the gateway. */
const HIDDEN_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/**
 * Mounts every plugin route (`ctx.http.route`) at `/plugins/<plugin>/<path>`. They are plain
 * fastify routes, so the admission hook (Host/Origin, key, rate limit) runs before each as
 * before any other route; the route then checks the key's scope, the body and the query,
 * runs the handler with a signal and a time limit, and answers with the usual envelope.
 */
export function registerPluginRoutes(app: FastifyInstance, gateway: Gateway, guard: HttpGuard, config: HttpConfig): void {
  for (const route of gateway.routes.routes) {
    const bodyLimit = Math.min(route.definition.bodyLimit ?? config.bodyLimitBytes, config.bodyLimitBytes);
    app.route({
      method: route.method,
      url: route.url,
      bodyLimit,
      schema: pluginRouteSchema(route, gateway.errors),
      // The route's own cap, not the gateway's, in the 413's message.
      errorHandler: (err, request, reply) => {
        const error = fromHttpError(err, bodyLimit);
        if (error.code === 'INTERNAL_ERROR') gateway.log.error({ err, url: request.url }, 'HTTP request failed');
        return sendError(reply, error, gateway.errors);
      },
      handler: (request, reply) => answerRoute(gateway, guard, route, request, reply),
    });
  }
}

/** Who calls, from the admission's memoised verdict. */
export function routeCaller(guard: HttpGuard, raw: FastifyRequest['raw']): { principal?: Principal; caller: RouteCaller } {
  const verdict = guard.check(raw);
  const principal = verdict.ok ? verdict.principal : undefined;
  const address = raw.socket.remoteAddress;
  return { principal, caller: { identity: principal?.name ?? address ?? 'unknown', keyName: principal?.name, address } };
}

export function forbiddenRoute(plugin: string, principal: Principal): GatewayError {
  return new GatewayError('FORBIDDEN', `The API key "${principal.name}" may not call the routes of plugin "${plugin}"; it needs the scope "route:${plugin}" (or "plugin:${plugin}", or "*").`);
}

async function answerRoute(gateway: Gateway, guard: HttpGuard, route: PreparedRoute, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { errors } = gateway;
  const { principal, caller } = routeCaller(guard, request.raw);
  if (principal && !principal.mayCallRoute(route.plugin, route.definition.scope)) return sendError(reply, forbiddenRoute(route.plugin, principal), errors);
  const name = `${route.method} ${route.url}`;
  const query: Record<string, unknown> = { ...(request.query as object) };
  const queryProblem = invalid(route.validateQuery, query, '/query');
  if (queryProblem) return sendError(reply, inputError(name, 'query', queryProblem), errors);
  let body = request.body;
  if (route.validateBody) {
    body ??= {};
    const bodyProblem = invalid(route.validateBody, body, '');
    if (bodyProblem) return sendError(reply, inputError(name, 'body', bodyProblem), errors);
  }

  const controller = new AbortController();
  let reject!: (reason: unknown) => void;
  const aborted = new Promise<never>((_, fail) => (reject = fail));
  aborted.catch(() => {});
  const abort = (reason: GatewayError) => {
    if (controller.signal.aborted) return;
    controller.abort(reason);
    reject(reason);
  };
  const timer = setTimeout(() => abort(new GatewayError('ROUTE_TIMEOUT', `${name} did not answer within ${route.timeoutMs} ms and was cancelled.`, { details: { timeoutMs: route.timeoutMs } })), route.timeoutMs);
  const onGone = () => {
    if (!reply.raw.writableFinished) abort(new GatewayError('CANCELLED', 'The client went away before the answer.'));
  };
  const onShutdown = () => abort(new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; retry on another instance.'));
  reply.raw.once('close', onGone);
  if (gateway.signal.aborted) onShutdown();
  else gateway.signal.addEventListener('abort', onShutdown, { once: true });

  const routeRequest: RouteRequest<never, never> = {
    method: request.method,
    params: { ...(request.params as Record<string, string>) },
    query: query as never,
    body: body as never,
    headers: visibleHeaders(request.headers),
    caller,
    signal: controller.signal,
    get log() {
      return gateway.log.child({ plugin: route.plugin, route: name });
    },
  };
  try {
    const value = await Promise.race([Promise.resolve().then(() => route.handler(routeRequest)), aborted]);
    return sendResult(gateway, route, name, value, reply);
  } catch (err) {
    if (isGatewayError(err) && errors.get(err.code)) return sendError(reply, err, errors);
    return sendError(reply, routeFailed(gateway, route, name, err), errors);
  } finally {
    clearTimeout(timer);
    reply.raw.off('close', onGone);
    gateway.signal.removeEventListener('abort', onShutdown);
  }
}

function sendResult(gateway: Gateway, route: PreparedRoute, name: string, value: unknown, reply: FastifyReply): FastifyReply {
  if (isHttpResponse(value)) {
    const problem = responseProblem(value);
    if (problem) return sendError(reply, routeFailed(gateway, route, name, new Error(`httpResponse with ${problem}`)), gateway.errors);
    const body = typeof value.body === 'string' ? value.body : Buffer.from(value.body.buffer, value.body.byteOffset, value.body.byteLength);
    return reply.code(value.status).headers(value.headers).header('x-content-type-options', 'nosniff').type(value.type).send(body);
  }
  const data = value === undefined ? null : value;
  if (route.validateResponse && !route.validateResponse(data)) {
    const problems = describeSchemaErrors(route.validateResponse.errors);
    return sendError(reply, routeFailed(gateway, route, name, new Error(`result breaks the responseSchema: ${JSON.stringify(problems)}`)), gateway.errors);
  }
  let text: string;
  try {
    // Serialised here, before anything is sent: a value JSON cannot express is the plugin's bug.
    text = JSON.stringify({ success: true, data });
  } catch (err) {
    return sendError(reply, routeFailed(gateway, route, name, err), gateway.errors);
  }
  return reply.code(200).type('application/json; charset=utf-8').send(text);
}

function routeFailed(gateway: Gateway, route: PreparedRoute, name: string, err: unknown): GatewayError {
  gateway.log.error({ err, plugin: route.plugin, route: name }, 'plugin route failed');
  return new GatewayError('INTERNAL_ERROR', `${name} of plugin "${route.plugin}" failed; the gateway log has the details.`);
}

/** The problems of `value` against `validate`, their paths under `prefix`; undefined when it passes. */
function invalid(validate: ValidateFunction | undefined, value: unknown, prefix: string) {
  if (!validate || validate(value)) return undefined;
  return describeSchemaErrors(validate.errors).map((p) => ({ path: `${prefix}${p.path}`, message: p.message }));
}

function inputError(name: string, part: string, problems: Array<{ path: string; message: string }>): GatewayError {
  const first = problems[0]!;
  return new GatewayError('INVALID_ROUTE_INPUT', `Invalid ${part} for ${name}: ${first.path || '(root)'} ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}.`, { details: problems });
}

function visibleHeaders(headers: IncomingHttpHeaders): Record<string, string | string[] | undefined> {
  const visible: Record<string, string | string[] | undefined> = {};
  for (const name in headers) if (!HIDDEN_HEADERS.has(name)) visible[name] = headers[name];
  return visible;
}
