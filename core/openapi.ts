import type { ErrorTable } from './errors.js';
import type { JsonSchema } from './schema.js';
import type { RegisteredTool } from './tool-catalog.js';

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
  const response: Record<string, JsonSchema> = {
    200: { description: 'The tool ran.', ...successEnvelopeSchema(tool.definition.outputSchema ? forDocument(tool.definition.outputSchema) : {}) },
  };
  // Every status some code in the table has (plugins' codes included), with the error envelope.
  const statuses = new Set([...errors.entries()].map(([, spec]) => spec.status).filter((s) => s >= 400));
  for (const status of [...statuses].sort()) {
    response[status] = { description: describeStatus(status, errors), ...errorEnvelopeSchema };
  }
  return {
    operationId: listing.name,
    tags: [tool.plugin],
    summary: listing.title ?? listing.annotations?.title ?? listing.name,
    description: listing.description,
    body: forDocument(tool.definition.inputSchema),
    response,
  };
}

/** The codes with a given status, for the OpenAPI response descriptions. */
function describeStatus(status: number, errors: ErrorTable): string {
  const codes = [...errors.entries()].filter(([, spec]) => spec.status === status).map(([code]) => code);
  return codes.length > 0 ? codes.join(', ') : `HTTP ${status}`;
}

/**
 * A schema made self-contained for the OpenAPI document: local `$ref`s into `$defs` are
 * inlined (they would not resolve once the schema sits inside the document), a recursive
 * one becomes an open schema saying so, and `$schema`/`$id` are dropped.
 */
export function forDocument(schema: JsonSchema): JsonSchema {
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
    if (seen.includes(name)) return { ...out, description: `Recursive: the same shape as ${name}.` };
    return { ...(inline(defs[name], [...seen, name]) as JsonSchema), ...out };
  };
  return inline(schema, []) as JsonSchema;
}
