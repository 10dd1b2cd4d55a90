import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Logger } from './logger.js';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
export const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export type { ErrorObject, ValidateFunction };
export type JsonSchema = Record<string, unknown>;

export interface SchemaCompilerOptions {
  /** Fill in `default` values from the schema (config sections and tool arguments). */
  useDefaults?: boolean;
  /** Only for configuration read from YAML and the environment; never for tool arguments. */
  coerceTypes?: boolean;
  /**
   * Report every problem rather than the first. Only for trusted input (configuration):
   * on a request body with a million unknown keys it would build a million errors.
   */
  allErrors?: boolean;
  log?: Logger;
}

/**
 * An Ajv2020 instance in strict mode. Strict mode turns a typo in a schema (`requried`,
 * an unknown format) into an error at boot instead of a schema that silently accepts
 * everything. No type coercion and no removal of extra keys: what the schema refuses is
 * refused, on every transport alike.
 */
export function createSchemaCompiler(options: SchemaCompilerOptions = {}): Ajv2020 {
  const { log } = options;
  const ajv = new Ajv2020({
    strict: true,
    // Not this one: it refuses a `required` whose properties are declared a level up, which is
    // how 2020-12 writes "phone or email" (`anyOf: [{required: [phone]}, …]`, if/then/else).
    strictRequired: false,
    allErrors: options.allErrors ?? false,
    useDefaults: options.useDefaults ?? false,
    coerceTypes: options.coerceTypes ?? false,
    removeAdditional: false,
    verbose: true,
    // ajv's default logger is `console`, and console.log writes to stdout — the protocol's.
    logger: {
      log: (...args: unknown[]) => log?.debug({ ajv: args }, 'ajv'),
      warn: (...args: unknown[]) => log?.warn({ ajv: args }, 'ajv warning'),
      error: (...args: unknown[]) => log?.error({ ajv: args }, 'ajv error'),
    },
  });
  addFormats(ajv);
  // A 2020-12 core keyword that ajv resolves ($ref: "#name") but does not declare, so strict
  // mode would call it unknown.
  ajv.addKeyword('$anchor');
  ajv.validateSchema = checkAgainstMetaSchema;
  rememberCompiled(ajv, options);
  return ajv;
}

/** Compiled validators by the options of the compiler that made them, then by their schema's JSON text. */
const compiledBefore = new Map<string, Map<string, ValidateFunction>>();
/** Per options: enough for every schema of every shipped plugin several times over. */
const COMPILED_KEPT = 2_000;

/**
 * Makes `ajv.compile` answer a schema that a compiler with the same options compiled before
 * in this process with that validator, instead of compiling it again (the largest part of a
 * gateway's boot after loading modules). A process that starts more than one gateway (the
 * test harness, the bench, `@mcp-gateway/core/testing`) compiles each plugin's schemas once. Every
 * compiler made here is the same but for these options, and a validator depends only on them
 * and its schema: nothing is added to an instance's schemas (no addSchema), so no `$ref` can
 * mean something else in another. A schema with an `$id` is compiled each time, so that an
 * instance still refuses a second schema under an `$id` it has (as Ajv does). The oldest are
 * forgotten past COMPILED_KEPT.
 */
function rememberCompiled(ajv: Ajv2020, options: SchemaCompilerOptions): void {
  const key = `${options.useDefaults ?? false}/${options.coerceTypes ?? false}/${options.allErrors ?? false}`;
  let known = compiledBefore.get(key);
  if (!known) compiledBefore.set(key, (known = new Map()));
  const compile = ajv.compile.bind(ajv);
  ajv.compile = (<T>(schema: JsonSchema, meta?: boolean) => {
    const text = JSON.stringify(schema);
    if (text.includes('"$id"')) return compile<T>(schema, meta);
    const before = known.get(text);
    if (before) return before;
    const validate = compile<T>(schema, meta) as ValidateFunction;
    known.set(text, validate);
    if (known.size > COMPILED_KEPT) known.delete(known.keys().next().value!);
    return validate;
  }) as Ajv2020['compile'];
}

let metaChecker: Ajv2020 | undefined;

/**
 * Checks a schema against the 2020-12 meta-schema with one Ajv shared by every compiler,
 * instead of each instance's own: an instance compiles the meta-schema on its first compile
 * (40-60 ms here), and a boot makes several instances (config, registry, plugin configs, the
 * catalogs). Same result and message as Ajv's own check; strict mode's checks of unknown
 * keywords still run in each instance when it compiles.
 */
function checkAgainstMetaSchema(schema: unknown, throwOrLogError?: boolean): boolean {
  metaChecker ??= new Ajv2020({ strict: true, validateSchema: false });
  const valid = metaChecker.validateSchema(schema as JsonSchema) as boolean;
  if (!valid && throwOrLogError) throw new Error(`schema is invalid: ${metaChecker.errorsText(metaChecker.errors)}`);
  return valid;
}

export interface SchemaProblem {
  /** JSON Pointer of the offending value, `""` for the root. */
  path: string;
  message: string;
}

/** ajv's errors as short lines a person can act on; unknown keys list the valid ones. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaProblem[] {
  if (!errors) return [];
  const problems = errors
    // `if` and `propertyNames` only wrap the error that says what is wrong.
    .filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames')
    .map((e) => ({
      path: e.instancePath,
      message: e.propertyName === undefined ? describeOne(e) : `key "${e.propertyName}" ${describeOne(e)}`,
    }));
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeOne(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'additionalProperties': {
      const valid = Object.keys((e.parentSchema?.properties as object | undefined) ?? {});
      const list = valid.length ? ` Valid keys: ${valid.join(', ')}.` : '';
      return `unknown key "${String(params.additionalProperty)}".${list}`;
    }
    case 'required':
      return `missing required key "${String(params.missingProperty)}"`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return e.message ?? `fails ${e.keyword}`;
  }
}

/** `a/b/0` JSON Pointer as `a.b[0]`, the way a YAML author reads key paths. */
export function pointerToKeyPath(pointer: string, prefix = ''): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = prefix;
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  return out || '(root)';
}

/**
 * A closed object schema (additionalProperties: false) whose keys are all required except
 * those named in `optional`: the usual shape of a tool's outputSchema, so that a result that
 * grows a key its schema does not list is caught.
 */
export function closedObject(properties: Record<string, JsonSchema>, optional: readonly string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, required: Object.keys(properties).filter((key) => !optional.includes(key)), properties };
}
