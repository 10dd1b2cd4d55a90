import type { ErrorTable } from '../contract/errors.js';
import type { JsonSchema } from '../lib/schema.js';
import { asDraft2020, isOlderDraft } from '../catalog/foreign-schema.js';
import { gatewayStatusProperties } from '../gateway/status-tool.js';
import type { RegisteredTool } from '../catalog/tool-catalog.js';

/** The document with `servers` set to where its operations are served. */
export function withServers<T extends object>(document: T, url: string): T & { servers: Array<{ url: string }> } {
  return { ...document, servers: [{ url }] };
}

/**
 * The listening address as a server URL; a relative `/` (the document's own origin) when
 * not listening (inject) or bound to every interface, whose address no client can use.
 */
export function serverUrl(host: string, address: unknown): string {
  const port = typeof address === 'object' && address !== null ? (address as { port?: number }).port : undefined;
  if (port === undefined || ['0.0.0.0', '::', '[::]'].includes(host)) return '/';
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

export const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'Stable error code; see docs/errors.md.' },
        message: { type: 'string' },
        details: { description: 'Structured details, e.g. the list of invalid arguments.' },
      },
    },
  },
};

export function successEnvelopeSchema(data: JsonSchema = {}): JsonSchema {
  return { type: 'object', required: ['success', 'data'], properties: { success: { const: true }, data } };
}

/**
 * The route schema of `POST /tools/<name>`: documentation only (validation happens in the
 * catalog, for every transport alike). Built from the tool's own schemas, never a copy.
 */
export function toolRouteSchema(tool: RegisteredTool, errors: ErrorTable): Record<string, unknown> {
  const { listing } = tool;
  const output = tool.definition.outputSchema;
  const response: Record<string, JsonSchema> = {
    200: { description: 'The tool ran.', ...successEnvelopeSchema(output ? forDocument(output, tool.listing.name) : {}) },
    // Every code in the table (plugins' codes included) can come from a tool call.
    ...errorResponses(errors, [...errors.entries()].map(([code]) => code)),
  };
  return {
    operationId: listing.name,
    tags: [tool.plugin],
    summary: listing.title ?? listing.annotations?.title ?? listing.name,
    description: listing.description,
    body: forDocument(tool.definition.inputSchema, tool.listing.name),
    response,
  };
}

/** One response per 4xx/5xx status among `codes`, described by its codes, with the error envelope. */
export function errorResponses(errors: ErrorTable, codes: readonly string[]): Record<string, JsonSchema> {
  const byStatus = new Map<number, string[]>();
  for (const code of codes) {
    const status = errors.get(code)?.status;
    if (status !== undefined && status >= 400) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const status of [...byStatus.keys()].sort()) responses[status] = { description: byStatus.get(status)!.join(', '), ...errorEnvelopeSchema };
  return responses;
}

/** What any request may be refused with before it reaches its route. */
export const ADMISSION_CODES = ['HOST_NOT_ALLOWED', 'UNAUTHORIZED', 'RATE_LIMITED'];

const toolListing: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plugin', 'name', 'description', 'inputSchema'],
  properties: {
    plugin: { type: 'string' },
    origin: { type: 'string', description: 'Where a tool the plugin relays really runs (`upstream fs: read_text_file`); absent for its own tools.' },
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    inputSchema: { type: 'object', description: 'JSON Schema of the arguments.' },
    outputSchema: { type: 'object', description: 'JSON Schema of the result.' },
    annotations: { type: 'object', description: 'MCP tool annotations (readOnlyHint, destructiveHint, …).' },
  },
};

/** Route schemas of the catalog: `GET /tools` and `GET /tools/{name}`. */
export function catalogRouteSchemas(errors: ErrorTable) {
  return {
    listTools: {
      operationId: 'listTools',
      tags: ['gateway'],
      summary: 'The tool catalog with schemas',
      response: {
        200: { description: 'The tools this caller may call.', ...successEnvelopeSchema({ type: 'array', items: toolListing }) },
        ...errorResponses(errors, ADMISSION_CODES),
      },
    },
    getTool: {
      operationId: 'getTool',
      tags: ['gateway'],
      summary: 'One tool with its schemas',
      params: { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'A tool name, e.g. file_read.' } } },
      response: {
        200: { description: 'The tool.', ...successEnvelopeSchema(toolListing) },
        ...errorResponses(errors, [...ADMISSION_CODES, 'FORBIDDEN', 'UNKNOWN_TOOL']),
      },
    },
  };
}

/** Route schema of `GET /health`. */
export function healthRouteSchema(errors: ErrorTable) {
  const body = (statuses: readonly string[]) => ({
    type: 'object',
    additionalProperties: false,
    required: ['status', ...Object.keys(gatewayStatusProperties)],
    properties: { status: { enum: statuses }, ...gatewayStatusProperties },
  });
  return {
    operationId: 'health',
    tags: ['gateway'],
    summary: 'Readiness and state',
    // Public: load balancers and monitors call it without a key.
    security: [],
    response: {
      200: {
        description: 'The gateway is ready; degraded when a breaker is not closed, a plugin was skipped or reports ok: false, or calls cannot be audited.',
        ...body(['ok', 'degraded']),
      },
      ...errorResponses(errors, ['HOST_NOT_ALLOWED']),
      503: {
        description: 'The gateway is not ready: still starting its listeners (`booting`), shutting down (`closing`; `state` says which), or its shared store does not answer (`unavailable`; `store.error` says why). GET /health/live says whether it is alive.',
        ...body(['booting', 'closing', 'unavailable']),
      },
    },
  };
}

/**
 * A schema made fit for the OpenAPI document: a draft-07 one is put in 2020-12 terms, local
 * `$ref`s into `$defs` (or `definitions`) are inlined (they would not resolve once the schema
 * sits inside the document), and `$schema`/`$id` are dropped. A recursive definition cannot
 * be inlined: it becomes a `$ref` to `#/components/schemas/<owner>.<name>`, and its schema is
 * put in `hoisted` under that name.
 */
export function forDocument(written: JsonSchema, owner: string, hoisted: Record<string, JsonSchema> = {}): JsonSchema {
  // A relayed tool's schema may be draft-07 (foreignSchemas); the document's are 2020-12.
  const schema = isOlderDraft(written) ? asDraft2020(written) : written;
  const defs = (schema.$defs ?? schema.definitions ?? {}) as Record<string, JsonSchema>;
  const inline = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => inline(n, seen));
    if (typeof node !== 'object' || node === null) return node;
    const { $ref, $defs: _defs, definitions: _definitions, $schema: _schema, $id: _id, ...rest } = node as JsonSchema;
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(rest)) out[key] = inline(value, seen);
    if (typeof $ref !== 'string') return out;
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec($ref)?.[1];
    if (name === undefined || !(name in defs)) return { ...out, description: `See ${$ref}.` };
    if (seen.includes(name)) {
      const component = `${owner}.${name}`;
      if (!(component in hoisted)) {
        // Claimed before it is built, so that the definition's own `$ref`s to itself stop here.
        hoisted[component] = {};
        hoisted[component] = inline(defs[name], [name]) as JsonSchema;
      }
      return { ...out, $ref: `#/components/schemas/${component}` };
    }
    return { ...(inline(defs[name], [...seen, name]) as JsonSchema), ...out };
  };
  return inline(schema, []) as JsonSchema;
}
