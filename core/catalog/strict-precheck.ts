import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../lib/schema.js';

/** 2020-12 keywords whose value is one subschema, a list of them, or a map of them. */
const ONE = ['additionalProperties', 'contains', 'contentSchema', 'else', 'if', 'items', 'not', 'propertyNames', 'then', 'unevaluatedItems', 'unevaluatedProperties'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const MAPS = ['$defs', 'definitions', 'dependentSchemas', 'patternProperties', 'properties'];

/**
 * What Ajv's strict mode would refuse in a tool's schema, found without compiling it: a schema
 * the 2020-12 meta-schema refuses, an unknown keyword (the typical typo, `requried`) or an
 * unknown format, at any schema position. Tool schemas compile on first use (tool-validators.ts),
 * so this keeps the usual mistakes a boot error; the rarer strict checks (a keyword for a type the
 * schema does not declare, a tuple without minItems, a required key not in properties) surface
 * when the schema compiles. Returns the problem in Ajv's words, or undefined.
 */
export function strictPrecheck(ajv: Ajv2020, schema: JsonSchema): string | undefined {
  try {
    ajv.validateSchema(schema, true);
  } catch (err) {
    return (err as Error).message;
  }
  const known = ajv.RULES.keywords;
  const walk = (node: unknown, at: string): string | undefined => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    const object = node as JsonSchema;
    for (const key of Object.keys(object)) {
      if (!known[key]) return `strict mode: unknown keyword: "${key}" (at ${at || '#'})`;
    }
    if (typeof object.format === 'string' && ajv.formats[object.format] === undefined) {
      return `unknown format "${object.format}" ignored in schema at path "${at || '#'}"`;
    }
    for (const key of ONE) {
      const problem = walk(object[key], `${at}/${key}`);
      if (problem) return problem;
    }
    for (const key of LISTS) {
      const list = object[key];
      if (!Array.isArray(list)) continue;
      for (let i = 0; i < list.length; i++) {
        const problem = walk(list[i], `${at}/${key}/${i}`);
        if (problem) return problem;
      }
    }
    for (const key of MAPS) {
      const map = object[key];
      if (typeof map !== 'object' || map === null) continue;
      for (const [name, sub] of Object.entries(map)) {
        const problem = walk(sub, `${at}/${key}/${name}`);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return walk(schema, '');
}
