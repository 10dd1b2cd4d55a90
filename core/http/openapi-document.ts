import type { Gateway } from '../gateway/gateway.js';
import type { JsonSchema } from '../lib/schema.js';
import type { RegisteredTool } from '../catalog/tool-catalog.js';
import { forDocument } from './openapi.js';
import { routeComponents } from './plugin-route-schema.js';

/** What this file uses of the gateway. */
export type DocumentGateway = Pick<Gateway, 'catalog' | 'plugins' | 'routes' | 'version'>;

// What the OpenAPI document says besides its paths: info, tags, the components that recursive
// schemas of tools and plugin routes need, and security.

/** The license of the package (package.json), for `info.license`. */
const LICENSE = { name: 'MIT', identifier: 'MIT' };

/**
 * The `openapi` option of @fastify/swagger: everything but the paths (from the route
 * schemas) and `servers` (added when the document is served, see `withServers`).
 * `keysRequired` is the one switch for security: with keys, both key schemes are required
 * everywhere but on public routes (`security: []` there); without, `security: []` says so.
 */
export function documentOptions(gateway: DocumentGateway, keysRequired: boolean): Record<string, unknown> {
  // A plugin's tag is declared where it tags an operation: its tools, prompts and routes.
  const plugins = gateway.plugins.loaded.filter((p) => p.tools.length > 0 || p.prompts.length > 0 || gateway.routes.has(p.name));
  return {
    openapi: '3.1.0',
    info: {
      title: 'mcp-gateway',
      version: gateway.version,
      description:
        'Every tool of this gateway as POST /tools/{name}, its arguments as the JSON body; resources through GET /resources?uri=, prompts as POST /prompts/{name}.',
      license: LICENSE,
    },
    tags: [{ name: 'gateway', description: 'The gateway itself' }, ...plugins.map((p) => ({ name: p.name, description: p.description }))],
    components: {
      schemas: { ...recursiveSchemas(gateway.catalog.list()), ...routeComponents(gateway.routes.routes) },
      ...(keysRequired
        ? {
            securitySchemes: {
              bearer: { type: 'http', scheme: 'bearer', description: 'An API key as "Authorization: Bearer <key>".' },
              apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key as "X-API-Key: <key>".' },
            },
          }
        : {}),
    },
    security: keysRequired ? [{ bearer: [] }, { apiKey: [] }] : [],
  };
}

/** The recursive `$defs` of every tool's schemas, for `components.schemas` (see forDocument). */
function recursiveSchemas(tools: readonly RegisteredTool[]): Record<string, JsonSchema> {
  const hoisted: Record<string, JsonSchema> = {};
  for (const tool of tools) {
    for (const schema of [tool.definition.inputSchema, tool.definition.outputSchema]) {
      if (schema) forDocument(schema, tool.listing.name, hoisted);
    }
  }
  return hoisted;
}
