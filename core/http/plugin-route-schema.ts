import type { ErrorTable } from '../contract/errors.js';
import type { JsonSchema } from '../lib/schema.js';
import { ADMISSION_CODES, errorResponses, forDocument, successEnvelopeSchema } from './openapi.js';
import type { PreparedRoute } from '../plugins/plugin-route-table.js';

/** What any plugin route may answer besides its own codes (and ADMISSION_CODES). */
const ROUTE_CODES = ['FORBIDDEN', 'ROUTE_TIMEOUT', 'CANCELLED', 'SHUTTING_DOWN', 'INTERNAL_ERROR'];
/** What a route that reads a body may answer about it. */
const BODY_CODES = ['PARSE_ERROR', 'INVALID_REQUEST', 'MESSAGE_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/**
 * The fastify route schema of a plugin route, for the OpenAPI document only (the route checks
 * its input itself, with the gateway's compilers): the plugin as tag, its schemas (local
 * `$ref`s inlined as for tools), one response per error status it can answer, the plugin's
 * own codes included.
 */
export function pluginRouteSchema(route: PreparedRoute, errors: ErrorTable): Record<string, unknown> {
  const { definition, operationId, params } = route;
  // (ADMISSION_CODES read here, not at load: openapi.ts and this module import each other.)
  const codes = [...ADMISSION_CODES, ...ROUTE_CODES];
  if (route.validateBody || route.validateQuery) codes.push('INVALID_ROUTE_INPUT');
  if (route.method !== 'GET') codes.push(...BODY_CODES);
  for (const [code, spec] of errors.entries()) if (spec.owner === route.plugin) codes.push(code);
  const ok: JsonSchema = definition.responseType
    ? { description: 'The route answered.', content: { [definition.responseType]: { schema: {} } } }
    : { description: 'The route answered.', ...successEnvelopeSchema(definition.responseSchema ? forDocument(definition.responseSchema, operationId) : {}) };
  return {
    operationId,
    tags: [route.plugin],
    summary: definition.summary ?? `${route.method} ${route.url.slice(`/plugins/${route.plugin}/`.length)}`,
    description: definition.description,
    ...(params.length > 0
      ? { params: { type: 'object', required: [...params], properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])) } }
      : {}),
    ...(definition.querySchema ? { querystring: forDocument(definition.querySchema, operationId) } : {}),
    ...(definition.bodySchema ? { body: forDocument(definition.bodySchema, operationId) } : {}),
    response: { 200: ok, ...errorResponses(errors, codes) },
  };
}

/** The recursive `$defs` of every route's schemas, for `components.schemas` (see forDocument). */
export function routeComponents(routes: readonly PreparedRoute[]): Record<string, JsonSchema> {
  const hoisted: Record<string, JsonSchema> = {};
  for (const route of routes) {
    const { bodySchema, querySchema, responseSchema } = route.definition;
    for (const schema of [bodySchema, querySchema, responseSchema]) if (schema) forDocument(schema, route.operationId, hoisted);
  }
  return hoisted;
}
