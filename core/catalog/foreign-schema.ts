import { Ajv as AjvDraft07 } from 'ajv';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { linearRegExp, shownPattern, type PatternMatcher } from './linear-regexp.js';
import { addFormats, type JsonSchema } from '../lib/schema.js';
import { runWithin, TimeBoundExceeded } from './time-bound.js';

/**
 * How long checking one value against a foreign schema may hold the event loop. RE2 keeps a
 * pattern linear, not short: about 100 ns a character on its fast path (a megabyte against
 * `^[a-z]+$`: 100 ms), far more on a pattern of thousands of instructions, once per text of an
 * array; the patterns RE2 cannot run backtrack on V8's engine, for hours at worst; and a
 * schema's own shape can multiply the work (`allOf`s of `$ref`s to `allOf`s). Checks of real
 * tool arguments take well under a millisecond.
 */
export const FOREIGN_VALIDATION_MS = 250;

/**
 * How long compiling one foreign schema may take. A real tool's schema compiles in a few
 * milliseconds; Ajv's code generation grows faster than the schema (2,000 properties: 6 s), and
 * one RE2 pattern of twenty characters can take 100 ms to compile.
 */
export const FOREIGN_COMPILE_MS = 500;

/**
 * The engine (Ajv's `code.regExp`) of patterns another server wrote. On V8's engine, which
 * backtracks, one like `^(a+)+$` would hold the event loop, and every transport with it, for
 * hours; so they run on RE2, in linear time (linear-regexp.ts), where it can run them with their
 * ECMAScript meaning. The others (a lookaround, a backreference, a repeat count over 1,000, a
 * Unicode property RE2 lacks, a program past MAX_PATTERN_SIZE) run on V8's engine, exactly as
 * ECMAScript means them: every validation runs within FOREIGN_VALIDATION_MS, which stops V8's
 * backtracking too (time-bound.ts), so such a pattern costs at most that per call, where
 * refusing it would lose a tool that works. Only a pattern that is not a valid ECMAScript
 * regular expression throws, so that its tool is refused.
 */
const foreignRegExp = Object.assign(
  (pattern: string, flags: string): PatternMatcher => {
    let exact: RegExp;
    try {
      exact = new RegExp(pattern, flags);
    } catch (err) {
      throw new Error(`the pattern ${shownPattern(pattern)} is not a valid regular expression: ${(err as Error).message}`);
    }
    try {
      return linearRegExp(pattern, flags);
    } catch {
      // (A compile stopped by FOREIGN_COMPILE_MS is not caught here: vm's timeout terminates
      // the script, past every catch.)
      return exact;
    }
  },
  // The name Ajv would write in standalone code; the gateway generates none.
  { code: 'foreignRegExp' },
);

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
  code: { regExp: foreignRegExp },
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
 * Patterns run on RE2 where it can, else on V8's engine (foreignRegExp); one that is not a
 * valid regular expression throws here, naming it. A validation still running after
 * FOREIGN_VALIDATION_MS is stopped, and fails saying so; a compile still running after
 * FOREIGN_COMPILE_MS is stopped, and throws.
 */
export function compileForeignSchema(schema: JsonSchema): ValidateFunction {
  const { $schema: _dialect, ...rest } = schema;
  const older = isOlderDraft(schema);
  let ajv: Pick<Ajv2020, 'compile' | 'removeSchema'> | undefined;
  // A compile stopped half way ran no `finally` of Ajv's: its instances are not to be trusted,
  // neither for a rerun (runWithin reruns a job the machine starved) nor for the next schema.
  const distrust = () => {
    foreignCompilers = undefined;
    ajv = undefined;
  };
  try {
    return withTimeBound(runWithin(FOREIGN_COMPILE_MS, () => (ajv = foreignCompiler(older)).compile(rest), { beforeRerun: distrust }));
  } catch (err) {
    if (!(err instanceof TimeBoundExceeded)) throw err;
    distrust();
    throw new Error(`compiling it took longer than ${err.ms} ms: the schema is too large, or its patterns too costly, for the gateway to check calls against it`);
  } finally {
    // The compiled function keeps what it needs. Kept in the shared instance, a schema's `$id`
    // would refuse the next schema with the same `$id` (the same tool relayed again after a
    // reconnect, or by a second server), and relayed tools that come and go would pile up.
    ajv?.removeSchema(rest);
  }
}

/** The shared compiler of a dialect, made anew after a compile was stopped. */
function foreignCompiler(olderDraft: boolean): Pick<Ajv2020, 'compile' | 'removeSchema'> {
  foreignCompilers ??= {
    draft07: addFormats(new AjvDraft07(foreignOptions) as unknown as Ajv2020) as unknown as AjvDraft07,
    draft2020: addFormats(new Ajv2020(foreignOptions)),
  };
  return olderDraft ? foreignCompilers.draft07 : foreignCompilers.draft2020;
}

/** `validate`, stopped after FOREIGN_VALIDATION_MS (time-bound.ts) with an error that says so. */
function withTimeBound(validate: ValidateFunction): ValidateFunction {
  const bounded = ((data: unknown) => {
    try {
      const valid = runWithin(FOREIGN_VALIDATION_MS, () => validate(data));
      bounded.errors = validate.errors;
      return valid;
    } catch (err) {
      if (!(err instanceof TimeBoundExceeded)) throw err;
      const message = `checking the value against the schema took longer than ${err.ms} ms (long texts against its patterns, a large value, or a schema that multiplies the work); send a smaller value`;
      bounded.errors = [{ keyword: 'timeBound', instancePath: '', schemaPath: '#', params: { ms: err.ms }, message }];
      return false;
    }
  }) as ValidateFunction;
  bounded.schema = validate.schema;
  bounded.schemaEnv = validate.schemaEnv;
  return bounded;
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
