import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { ContentOutcome, ContentRequest } from '../catalog/content-calls.js';
import type { RegisteredPrompt } from '../catalog/prompt-catalog.js';
import type { Principal } from '../auth/api-keys.js';
import { restView } from '../catalog/caller-view.js';
import type { HttpGuard } from './http-guard.js';
import { errorAnswer, sendAnswer, sendError } from './http-reply.js';
import { contentRouteSchemas, promptRouteSchema } from './openapi-content.js';

/** What this file uses of the gateway. */
export type RestContentGateway = Pick<Gateway, 'errors' | 'profiles' | 'prompts' | 'resources'>;

/**
 * The REST face of resources and prompts: `GET /resources` (the list, or one read with
 * `?uri=`), `GET /prompts`, and `POST /prompts/<name>` with the arguments as the JSON body.
 * Like the tool routes, they call the catalogs exactly as MCP does (same validation, scopes,
 * time limits and audit) and answer with the usual envelopes; admission (Host/Origin, key,
 * rate limit) happened in the app's onRequest hook.
 */
export function registerContentRoutes(app: FastifyInstance, gateway: RestContentGateway, guard: HttpGuard): void {
  const { resources, prompts, errors } = gateway;
  const schemas = contentRouteSchemas(errors);
  const principalOf = (request: FastifyRequest) => {
    const result = guard.check(request.raw);
    return result.ok ? result.principal : undefined;
  };

  app.get<{ Querystring: { uri?: unknown } }>('/resources', { schema: schemas.resources }, async (request, reply) => {
    const principal = principalOf(request);
    const { allowsPlugin } = restView(gateway.profiles, principal);
    const { uri } = request.query;
    if (uri === undefined) {
      const visible = (entry: { plugin: string }) => allowsPlugin?.(entry.plugin) ?? true;
      const entries = resources.list().filter(visible);
      const data = {
        resources: entries.filter((r) => r.resource).map((r) => ({ plugin: r.plugin, ...r.resource })),
        resourceTemplates: entries.filter((r) => r.resourceTemplate).map((r) => ({ plugin: r.plugin, ...r.resourceTemplate })),
      };
      return { success: true, data };
    }
    if (typeof uri !== 'string') return sendError(reply, new GatewayError('INVALID_URI', 'Give one "uri" query parameter, %XX-escaped, e.g. /resources?uri=notes%3A%2F%2Freadme.'), errors);
    return answer(reply, await resources.read(uri, restRequest(gateway, principal, request, reply.raw)), (value) => ({ contents: value }));
  });

  app.get('/prompts', { schema: schemas.listPrompts }, (request) => {
    const { allowsPlugin } = restView(gateway.profiles, principalOf(request));
    return { success: true, data: prompts.list().filter((p) => allowsPlugin?.(p.plugin) ?? true).map(describePrompt) };
  });

  for (const prompt of prompts.list()) {
    app.post(`/prompts/${prompt.listing.name}`, { schema: promptRouteSchema(prompt, errors) }, (request, reply) => getPrompt(prompt.listing.name, request, reply));
  }
  // Names no prompt had at start (static routes above win): prompts added at run time, and
  // unknown names, which the catalog answers UNKNOWN_PROMPT and records.
  app.post<{ Params: { name: string } }>('/prompts/:name', { schema: { hide: true } }, (request, reply) => getPrompt(request.params.name, request, reply));

  async function getPrompt(name: string, request: FastifyRequest, reply: FastifyReply) {
    const outcome = await prompts.render(name, request.body, restRequest(gateway, principalOf(request), request, reply.raw));
    return answer(reply, outcome, (value) => value);
  }

  function answer<T>(reply: FastifyReply, outcome: ContentOutcome<T>, data: (value: T) => unknown) {
    if (reply.raw.destroyed) return reply;
    if (!outcome.ok) return sendAnswer(reply, errorAnswer(outcome.error, errors));
    return sendAnswer(reply, { status: 200, body: { success: true, data: data(outcome.value) } });
  }
}

/** A REST request to the catalogs: the caller, its key's scopes, and cancellation when the client hangs up. */
function restRequest(gateway: RestContentGateway, principal: Principal | undefined, request: FastifyRequest, res: ServerResponse): ContentRequest {
  return {
    caller: { transport: 'rest', identity: principal?.name ?? request.ip, ...(principal ? { keyName: principal.name } : {}) },
    allowsPlugin: restView(gateway.profiles, principal).allowsPlugin,
    onCancelable: (cancel) =>
      res.once('close', () => {
        if (!res.writableFinished) cancel();
      }),
  };
}

function describePrompt(prompt: RegisteredPrompt) {
  return { plugin: prompt.plugin, ...prompt.listing, argumentsSchema: prompt.argumentsSchema };
}
