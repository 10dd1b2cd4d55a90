import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toolScope } from './api-keys.js';
import type { Gateway } from '../gateway.js';
import type { HttpGuard } from './http-guard.js';
import { sendAnswer, sendError } from './http-reply.js';
import { restSuccess } from '../replies.js';
import { catalogRouteSchemas, toolRouteSchema } from './openapi.js';
import { restCallAnswer } from './rest-calls.js';
import { forbiddenError, toolEntry, unknownToolError } from '../catalog/tool-catalog.js';

/**
 * The REST bridge, generated from the catalog with no per-tool code: `POST /tools/<name>`
 * with the arguments as the JSON body, and `GET /tools[/<name>]` for the catalog. Calls go
 * through `catalog.call`, exactly like MCP calls, so both accept and refuse the same input.
 * On a listening server, well-formed tool calls are served ahead of fastify by
 * `restCallPath` (rest-calls.ts) with the same answers; these routes serve the rest (and
 * `inject`), and describe every tool in the OpenAPI document.
 */
export function registerRestRoutes(app: FastifyInstance, gateway: Gateway, guard: HttpGuard): void {
  const { catalog, errors } = gateway;
  const schemas = catalogRouteSchemas(errors);
  const principalOf = (request: FastifyRequest) => {
    const result = guard.check(request.raw);
    return result.ok ? result.principal : undefined;
  };

  app.get('/tools', { schema: schemas.listTools }, (request) => {
    const scope = toolScope(principalOf(request));
    return restSuccess(catalog.list().filter((t) => scope?.(t) ?? true).map(toolEntry));
  });

  app.get<{ Params: { name: string } }>('/tools/:name', { schema: schemas.getTool }, (request, reply) => {
    const tool = catalog.get(request.params.name);
    if (!tool) return sendError(reply, unknownToolError(request.params.name), errors);
    const principal = principalOf(request);
    if (toolScope(principal)?.(tool) === false) return sendError(reply, forbiddenError(tool, principal?.name), errors);
    return restSuccess(toolEntry(tool));
  });

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

  async function callTool(name: string, request: FastifyRequest, reply: FastifyReply) {
    const caller = { principal: principalOf(request), address: request.ip };
    return sendAnswer(reply, await restCallAnswer(gateway, name, request.body, caller, reply.raw));
  }
}
