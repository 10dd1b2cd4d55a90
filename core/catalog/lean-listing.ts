import type { Tool } from '@modelcontextprotocol/server';
import type { ListingForm } from '../config/config.js';
import type { ToolAnnotations, ToolDefinition } from '../contract/plugin-types.js';
import type { JsonSchema } from '../lib/schema.js';
import { isPlainObject } from '../lib/json.js';

// The lean and the full listing of a tool; `tools.listing` (ListingForm, in the config) chooses.

/** The tools/list entry of `definition` in the form asked for. */
export function toolListing(definition: ToolDefinition, form: ListingForm): Tool {
  const { name, title, description, inputSchema, outputSchema, annotations } = definition;
  const lean = form === 'lean';
  const shownAnnotations = lean ? leanAnnotations(annotations) : { ...annotations };
  return {
    name,
    description,
    inputSchema: (lean ? leanInputSchema(inputSchema) : inputSchema) as Tool['inputSchema'],
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
 * Keywords that bound an argument without saying what it is: lengths and counts, character
 * patterns, uniqueness, rules for keys. The gateway checks every call against the full schema
 * and answers one outside them `INVALID_ARGUMENTS`, naming the argument and the rule; a model
 * calls right without reading them, and every session would pay for them.
 */
const INPUT_BOUNDS = new Set([
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
  'minProperties', 'maxProperties', 'propertyNames', 'contains', 'minContains', 'maxContains',
  // Conditions and negations only ever refuse: left out, the schema is looser, never stricter.
  'not', 'if', 'then', 'else', 'dependentRequired', '$comment',
  // Only refuse too, and they read what `contains`, `then` and the like marked as evaluated:
  // kept while those go, they would refuse what the full schema takes.
  'unevaluatedProperties', 'unevaluatedItems',
]);

/** Keywords whose value is a subschema, a list of them, or a map of names to them. */
const SUBSCHEMA = new Set(['items', 'additionalItems', 'additionalProperties']);
const SUBSCHEMA_LISTS = new Set(['prefixItems', 'anyOf', 'oneOf', 'allOf']);
const SUBSCHEMA_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);

/**
 * The input schema with what a model reads to call the tool: types, enums and consts, required
 * arguments, defaults, numeric ranges, formats, descriptions, and the first of its `examples`
 * (a client offers it to people trying the tool; every tool's are safe to run). Bounds go
 * (`INPUT_BOUNDS`), and so does a closed object's `additionalProperties: false`: an unknown
 * argument is refused by name. Like the output's lean form it only loosens, so a client that
 * checks a call against it never refuses one the gateway would take; a schema with `$ref` is
 * kept whole.
 */
export function leanInputSchema(schema: JsonSchema): JsonSchema {
  return refersAnywhere(schema) ? schema : (leanArguments(schema) as JsonSchema);
}

function leanArguments(schema: unknown): unknown {
  // `true`, `false` and anything malformed are kept as they are: exact, and never larger.
  if (!isPlainObject(schema)) return schema;
  const lean: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (INPUT_BOUNDS.has(key) || (key === 'additionalProperties' && value === false)) continue;
    if (key === 'examples' && Array.isArray(value)) lean.examples = value.slice(0, 1);
    else if (SUBSCHEMA.has(key)) lean[key] = Array.isArray(value) ? value.map(leanArguments) : leanArguments(value);
    // Branches without their bounds may match twice, which a oneOf refuses: it becomes an anyOf
    // (beside a real anyOf it goes, looser and so still right).
    else if (key === 'oneOf' && 'anyOf' in schema) continue;
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) lean[key === 'oneOf' ? 'anyOf' : key] = value.map(leanArguments);
    else if (SUBSCHEMA_MAPS.has(key) && isPlainObject(value)) lean[key] = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, leanArguments(inner)]));
    else lean[key] = value;
  }
  return lean;
}

/**
 * The output schema with its types and none of its prose or constraints. A model never reads
 * it; a client checks `structuredContent` against it. So it must accept every value the full
 * schema accepts (a client would otherwise refuse a good result), and every step below only
 * loosens: keywords are kept from a short list, never added. The result's own fields keep
 * their types; deeper objects keep only that they are objects. Which fields are required is
 * left out: the gateway checks every result against the full schema before it answers
 * (`checkOutput` in tool-catalog.ts), so a client's check of it could only pass.
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
