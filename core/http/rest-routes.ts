import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpGuard } from './http-guard.js';
import { sendAnswer, sendError } from './http-reply.js';
import { restSuccess } from '../contract/replies.js';
import { catalogRouteSchemas, toolRouteSchema } from './openapi.js';
import { restCallAnswer } from './rest-calls.js';
import { callRefusal, toolEntry, unknownToolError } from '../catalog/tool-catalog.js';
import { listsTool, restView, type CallerView } from '../catalog/caller-view.js';
import { isGatewayError } from '../contract/errors.js';

/** What this file uses of the gateway. */
export type RestRoutesGateway = Pick<Gateway, 'catalog' | 'errors' | 'log' | 'profiles'>;

type ProfileParams = { profile?: string };

/**
 * The REST bridge, generated from the catalog with no per-tool code: `POST /tools/<name>`
 * with the arguments as the JSON body, and `GET /tools[/<name>]` for the catalog. Calls go
 * through `catalog.call`, exactly like MCP calls, so both accept and refuse the same input.
 * On a listening server, well-formed tool calls are served ahead of fastify by
 * `restCallPath` (rest-calls.ts) with the same answers; these routes serve the rest (and
 * `inject`), and describe every tool in the OpenAPI document. The same routes under
 * `/profiles/<profile>/` serve one profile; the plain ones serve the whole catalog (or the
 * profile the caller's key is bound to).
 */
export function registerRestRoutes(app: FastifyInstance, gateway: RestRoutesGateway, guard: HttpGuard): void {
  const { catalog, errors, profiles } = gateway;
  const schemas = catalogRouteSchemas(errors);
  const principalOf = (request: FastifyRequest) => {
    const result = guard.check(request.raw);
    return result.ok ? result.principal : undefined;
  };
  /** The caller's view through the URL's profile, or the error that refuses it (sent). */
  const viewOf = (request: FastifyRequest<{ Params: ProfileParams }>, reply: FastifyReply): CallerView | undefined => {
    const principal = principalOf(request);
    try {
      return restView(profiles, principal, request.params.profile);
    } catch (err) {
      if (!isGatewayError(err)) throw err;
      sendError(reply, err, errors);
      return undefined;
    }
  };

  const listTools = (request: FastifyRequest<{ Params: ProfileParams }>, reply: FastifyReply) => {
    const view = viewOf(request, reply);
    if (view) return restSuccess(catalog.list().filter((t) => listsTool(view, t)).map(toolEntry));
    return reply;
  };
  const getTool = (request: FastifyRequest<{ Params: ProfileParams & { name: string } }>, reply: FastifyReply) => {
    const view = viewOf(request, reply);
    if (!view) return reply;
    const tool = catalog.get(request.params.name);
    if (!tool) return sendError(reply, unknownToolError(request.params.name), errors);
    const refused = callRefusal(tool, { ...view, caller: { transport: 'rest', identity: principalOf(request)?.name } });
    return refused ? sendError(reply, refused, errors) : restSuccess(toolEntry(tool));
  };
  app.get('/tools', { schema: schemas.listTools }, listTools);
  app.get('/tools/:name', { schema: schemas.getTool }, getTool);
  app.get('/profiles/:profile/tools', { schema: { hide: true } }, listTools);
  app.get('/profiles/:profile/tools/:name', { schema: { hide: true } }, getTool);

  for (const tool of catalog.list()) {
    app.post(`/tools/${tool.listing.name}`, { schema: toolRouteSchema(tool, errors) }, (request, reply) =>
      callTool(tool.listing.name, request, reply),
    );
  }
  // Names no tool has (static routes above win over this parametric one): the catalog answers
  // UNKNOWN_TOOL and records the attempt, as it does for MCP.
  app.post<{ Params: { name: string } }>('/tools/:name', { schema: { hide: true } }, (request, reply) =>
    callTool(request.params.name, request, reply),
  );
  // Documented per profile at /profiles/<profile>/openapi.json (profile-routes.ts).
  app.post<{ Params: { name: string; profile: string } }>('/profiles/:profile/tools/:name', { schema: { hide: true } }, (request, reply) => {
    if (!profiles.get(request.params.profile)) return sendError(reply, profiles.notFound(request.params.profile), errors);
    return callTool(request.params.name, request, reply, request.params.profile);
  });

  async function callTool(name: string, request: FastifyRequest, reply: FastifyReply, profile?: string) {
    const caller = { principal: principalOf(request), address: request.ip, profile };
    return sendAnswer(reply, await restCallAnswer(gateway, name, request.body, caller, reply.raw));
  }
}
