import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { addFormats, type JsonSchema } from './schema.js';

const foreignOptions = {
  strict: false,
  validateSchema: false,
  allErrors: false,
  useDefaults: false,
  coerceTypes: false,
  removeAdditional: false,
  verbose: true,
  // Never `console` (stdout is the protocol's); ignored keywords are expected here, not news.
  logger: false,
} as const;

let foreignCompilers: { draft07: AjvDraft07; draft2020: Ajv2020 } | undefined;

/** Whether `schema` says it is draft-04 to draft-07 (by its `$schema`), rather than 2020-12. */
export function isOlderDraft(schema: JsonSchema): boolean {
  return typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema);
}

/**
 * Compiles a schema written for another server (an upstream MCP server's tool schema), which
 * was not written for Ajv's strict mode: no strict mode, no meta-schema check, and the dialect
 * its `$schema` names (draft-04 to draft-07 as draft-07, anything else as 2020-12). Defaults
 * are not filled in and nothing is coerced: the arguments reach that server as the caller sent
 * them, and it applies its own defaults. Unknown keywords and formats are ignored, not refused.
 * Draft-04's own forms (`id`, a boolean `exclusiveMinimum`) do not compile as draft-07.
 */
export function compileForeignSchema(schema: JsonSchema): ValidateFunction {
  foreignCompilers ??= {
    draft07: addFormats(new AjvDraft07(foreignOptions) as unknown as Ajv2020) as unknown as AjvDraft07,
    draft2020: addFormats(new Ajv2020(foreignOptions)),
  };
  const { $schema: _dialect, ...rest } = schema;
  const ajv: Pick<Ajv2020, 'compile' | 'removeSchema'> = isOlderDraft(schema) ? foreignCompilers.draft07 : foreignCompilers.draft2020;
  try {
    return ajv.compile(rest);
  } finally {
    // The compiled function keeps what it needs. Kept in the shared instance, a schema's `$id`
    // would refuse the next schema with the same `$id` (the same tool relayed again after a
    // reconnect, or by a second server), and relayed tools that come and go would pile up.
    ajv.removeSchema(rest);
  }
}

/** Keywords whose value is one subschema, a list of them, or a map of them, in draft-07. */
const ONE = ['additionalItems', 'additionalProperties', 'contains', 'else', 'if', 'items', 'not', 'propertyNames', 'then'];
const LISTS = ['allOf', 'anyOf', 'oneOf'];
const MAPS = ['definitions', 'dependencies', 'patternProperties', 'properties'];

/**
 * A draft-04 to 07 schema in 2020-12 terms, for a document whose schemas are 2020-12 (OpenAPI
 * 3.1): a tuple `items: [...]` becomes `prefixItems`, and its `additionalItems` the `items`.
 * Only schema positions are walked, so `default`, `examples` and `enum` values stay as written.
 */
export function asDraft2020(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    const out: JsonSchema = { ...(node as JsonSchema) };
    for (const key of ONE) if (key in out) out[key] = walk(out[key]);
    for (const key of LISTS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(walk);
    for (const key of MAPS) {
      const map = out[key];
      // `dependencies` values may be lists of property names: walk returns those as they are.
      if (typeof map === 'object' && map !== null && !Array.isArray(map)) {
        out[key] = Object.fromEntries(Object.entries(map).map(([name, value]) => [name, walk(value)]));
      }
    }
    if (!Array.isArray(out.items)) return out;
    const { items, additionalItems, ...rest } = out;
    return { ...rest, prefixItems: (items as unknown[]).map(walk), ...(additionalItems === undefined ? {} : { items: additionalItems }) };
  };
  return walk(schema) as JsonSchema;
}
