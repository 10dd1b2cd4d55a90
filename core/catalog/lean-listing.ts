import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAnnotations, ToolDefinition } from '../plugins/plugin-types.js';
import type { JsonSchema } from './schema.js';
import { isPlainObject } from '../json.js';

/**
 * What tools/list carries of each tool (`tools.listing` in the config). `lean`: what a model
 * reads (name, description, the input schema and its prose) and what a client needs to check
 * results (the output schema's types), nothing else; every session pays for the list in
 * context before its first call. `full`: the definitions as written, for clients that show
 * output schemas to people. REST and OpenAPI always work from the full definition.
 */
export type ListingForm = 'lean' | 'full';

/** The tools/list entry of `definition` in the form asked for. */
export function toolListing(definition: ToolDefinition, form: ListingForm): Tool {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  const lean = form === 'lean';
  const shownAnnotations = lean ? leanAnnotations(annotations) : { ...annotations };
  return {
    name,
    description,
    // Whole, `examples` included: the model reads it to call the tool, and a client offers
    // the examples to people trying a tool (safe to run, as every tool's must be).
    inputSchema: inputSchema as Tool['inputSchema'],
    ...(Object.keys(shownAnnotations).length === 0 ? {} : { annotations: shownAnnotations }),
    ...(title === undefined ? {} : { title }),
    ...(outputSchema === undefined ? {} : { outputSchema: (lean ? leanOutputSchema(outputSchema) : outputSchema) as Tool['outputSchema'] }),
  };
}

/** The values the MCP specification gives a hint that is left out: stating them says nothing. */
const DEFAULT_HINTS: Readonly<Record<string, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** The annotations without the hints that equal the specification's defaults (`title` stays). */
export function leanAnnotations(annotations: ToolAnnotations): NonNullable<Tool['annotations']> {
  return Object.fromEntries(Object.entries(annotations).filter(([key, value]) => DEFAULT_HINTS[key] !== value));
}

/**
 * The output schema with its types and none of its prose or constraints. A model never reads
 * it; a client checks `structuredContent` against it. So it must accept every value the full
 * schema accepts (a client would otherwise refuse a good result), and every step below only
 * loosens: keywords are kept from a short list, never added. The result's own fields keep
 * their types and its required list; deeper objects keep only that they are objects.
 *
 * A schema that refers anywhere (`$ref`) is kept whole: a lean form would have to follow the
 * references to stay right, and a foreign server's recursive shapes are rare enough not to.
 */
export function leanOutputSchema(schema: JsonSchema): JsonSchema {
  if (refersAnywhere(schema)) return schema;
  const lean = leanShape(schema, true) as JsonSchema;
  // The dialect decides what `items` and the like mean: a foreign draft-07 schema keeps saying so.
  return typeof schema.$schema === 'string' ? { $schema: schema.$schema, ...lean } : lean;
}

/**
 * One subschema made lean. `top`: the result itself (or one of its alternatives), whose
 * fields keep their shapes; below it an object is only `{type: 'object'}`.
 */
function leanShape(schema: unknown, top: boolean): unknown {
  // `true`, `false` and anything malformed are kept as they are: exact, and never larger.
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const full = schema as JsonSchema;
  const lean: JsonSchema = {};
  if (full.type !== undefined) lean.type = full.type;
  if ('enum' in full) lean.enum = full.enum;
  if ('const' in full) lean.const = full.const;
  if (top && isPlainObject(full.properties)) {
    lean.properties = Object.fromEntries(Object.entries(full.properties).map(([key, field]) => [key, leanShape(field, false)]));
  }
  if (top && Array.isArray(full.required)) lean.required = full.required;
  // Kept only as schemas: `items: false` (or a closed tuple) is a constraint, and constraints go.
  if (isPlainObject(full.items)) lean.items = leanShape(full.items, false);
  else if (Array.isArray(full.items)) lean.items = full.items.map((item) => leanShape(item, false));
  // With prefixItems, 2020-12 `items` speaks only of the elements after them: they stay together.
  if (Array.isArray(full.prefixItems)) lean.prefixItems = full.prefixItems.map((item) => leanShape(item, false));
  // A oneOf whose branches lost their constraints may match twice and so refuse what the full
  // schema accepts: it becomes an anyOf. Beside a real anyOf it goes (looser, so still right).
  const alternatives = Array.isArray(full.anyOf) ? full.anyOf : Array.isArray(full.oneOf) ? full.oneOf : undefined;
  if (alternatives) mergeAlternatives(lean, alternatives.map((branch) => leanShape(branch, top)));
  if (Array.isArray(full.allOf)) {
    const parts = full.allOf.map((part) => leanShape(part, top)).filter((part) => !acceptsAll(part));
    if (parts.length > 0) lean.allOf = parts;
  }
  return lean;
}

/**
 * Adds lean alternatives to `lean`: dropped when one accepts anything; `[{type: X}, {type:
 * 'null'}]` and other bare types become one type list (the same set of values, in fewer bytes).
 */
function mergeAlternatives(lean: JsonSchema, branches: unknown[]): void {
  if (branches.some(acceptsAll)) return;
  const bare = branches.every((branch) => isPlainObject(branch) && Object.keys(branch).length === 1 && isTypeValue(branch.type));
  if (bare && lean.type === undefined) {
    const types = [...new Set(branches.flatMap((branch) => [(branch as JsonSchema).type].flat()))];
    lean.type = types.length === 1 ? types[0] : types;
    return;
  }
  lean.anyOf = branches;
}

function acceptsAll(schema: unknown): boolean {
  return schema === true || (isPlainObject(schema) && Object.keys(schema).length === 0);
}

function isTypeValue(value: unknown): boolean {
  return typeof value === 'string' || (Array.isArray(value) && value.every((type) => typeof type === 'string'));
}

/** Whether a reference keyword appears anywhere (a property named `$ref` counts too: keeping a schema whole is never wrong). */
function refersAnywhere(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(refersAnywhere);
  if (!isPlainObject(value)) return false;
  return Object.entries(value).some(([key, inner]) => key === '$ref' || key === '$dynamicRef' || key === '$recursiveRef' || refersAnywhere(inner));
}
