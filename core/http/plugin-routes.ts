import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/api-keys.js';
import type { HttpConfig } from '../config/config.js';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpGuard } from './http-guard.js';
import { fromHttpError, sendError } from './http-reply.js';
import { describeSchemaErrors, type ValidateFunction } from '../lib/schema.js';
import type { PreparedRoute } from '../plugins/plugin-route-table.js';
import { pluginRouteSchema } from './plugin-route-schema.js';
import { isHttpResponse, responseProblem, type HttpResponse } from './route-response.js';
import type { RouteCaller, RouteRequest } from '../contract/route-types.js';

/** What this file uses of the gateway. */
export type PluginRoutesGateway = Pick<Gateway, 'calls' | 'errors' | 'log' | 'routes'>;

/** Headers a plugin never sees: the caller's key belongs to the gateway. */
const HIDDEN_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

/**
 * Mounts every plugin route (`ctx.http.route`) at `/plugins/<plugin>/<path>`. They are plain
 * fastify routes, so the admission hook (Host/Origin, key, rate limit) runs before each as
 * before any other route; each request then goes through the call pipeline (answerRoute)
 * and is answered with the usual envelope.
 */
export function registerPluginRoutes(app: FastifyInstance, gateway: PluginRoutesGateway, guard: HttpGuard, config: HttpConfig): void {
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

/** What a route's value becomes before anything is sent: a JSON envelope, or the plugin's own HTTP response. */
type RouteReply = { readonly ok: true; readonly json: string } | { readonly ok: true; readonly response: HttpResponse };

/**
 * One request to a plugin route, through the call pipeline as every call (kind `route`):
 * refused at shutdown or when the audit journal cannot record it, the key's scope and the
 * query and body checked, the handler raced against the route's time limit (ROUTE_TIMEOUT),
 * the client going away (CANCELLED) and shutdown, its value checked and serialised, then
 * audited and counted before the answer leaves.
 */
async function answerRoute(gateway: PluginRoutesGateway, guard: HttpGuard, route: PreparedRoute, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { principal, caller } = routeCaller(guard, request.raw);
  const name = route.target.label;
  const params = { ...(request.params as Record<string, string>) };
  const query: Record<string, unknown> = { ...(request.query as object) };
  const body = route.validateBody ? (request.body ?? {}) : request.body;
  const onCancelable = (cancel: () => void) => {
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) cancel();
    });
  };
  const outcome = await gateway.calls.invoke({
    kind: 'route',
    name,
    target: route.target,
    args: { params, query, body },
    request: { caller: { transport: 'rest', identity: caller.identity, keyName: caller.keyName }, onCancelable },
    check: () => {
      if (principal && !principal.mayCallRoute(route.plugin, route.definition.scope)) return forbiddenRoute(route.plugin, principal);
      const queryProblem = invalid(route.validateQuery, query, '/query');
      if (queryProblem) return inputError(name, 'query', queryProblem);
      const bodyProblem = invalid(route.validateBody, body, '');
      return bodyProblem && inputError(name, 'body', bodyProblem);
    },
    handler: (call) => {
      const routeRequest: RouteRequest<never, never> = {
        method: request.method,
        params,
        query: query as never,
        body: body as never,
        headers: visibleHeaders(request.headers),
        caller,
        get signal() {
          return call.signal;
        },
        get log() {
          return call.log;
        },
      };
      return route.handler(routeRequest);
    },
    answer: (value): RouteReply => routeReply(route, value),
  });
  if (!outcome.ok) return sendError(reply, outcome.error, gateway.errors);
  if ('json' in outcome) return reply.code(200).type('application/json; charset=utf-8').send(outcome.json);
  const { response } = outcome;
  const payload = typeof response.body === 'string' ? response.body : Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
  return reply.code(response.status).headers(response.headers).header('x-content-type-options', 'nosniff').type(response.type).send(payload);
}

/** A handler's value checked and made ready to send; a throw is the plugin's bug (INTERNAL_ERROR, logged by the pipeline). */
function routeReply(route: PreparedRoute, value: unknown): RouteReply {
  if (isHttpResponse(value)) {
    const problem = responseProblem(value);
    if (problem) throw new Error(`httpResponse with ${problem}`);
    return { ok: true, response: value };
  }
  const data = value === undefined ? null : value;
  if (route.validateResponse && !route.validateResponse(data)) {
    throw new Error(`result breaks the responseSchema: ${JSON.stringify(describeSchemaErrors(route.validateResponse.errors))}`);
  }
  // Serialised here, before anything is sent: a value JSON cannot express is the plugin's bug.
  return { ok: true, json: JSON.stringify({ success: true, data }) };
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
