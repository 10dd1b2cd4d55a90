import { GatewayError } from '../contract/errors.js';
import type { JsonSchema, ValidateFunction } from '../lib/schema.js';

export interface CompiledValidators {
  readonly input: ValidateFunction;
  /** Present when the tool declares an outputSchema. */
  readonly output?: ValidateFunction;
}

/**
 * A tool's argument and result validators, compiled on first use instead of at boot. Ajv's
 * code generation was half of a start-up's CPU with the default plugins, and most tools of a
 * session are never called; the gateway compiles the rest in the background once it is ready
 * (ToolCatalog.compileInBackground), so a first call rarely pays for it either. A schema Ajv
 * refuses stays refused: every call of that tool answers the same TOOL_DEFINITION_INVALID.
 */
export class ToolValidators {
  readonly #label: string;
  readonly #compile: (schema: JsonSchema) => ValidateFunction;
  readonly #inputSchema: JsonSchema;
  readonly #outputSchema: JsonSchema | undefined;
  readonly #strict: boolean;
  #compiled: CompiledValidators | undefined;
  #failure: GatewayError | undefined;

  /** `label` names the tool in the error (`Plugin "x", tool "y"`); `strict`: whether `compile` is the strict-mode compiler. */
  constructor(label: string, compile: (schema: JsonSchema) => ValidateFunction, inputSchema: JsonSchema, outputSchema: JsonSchema | undefined, strict: boolean) {
    this.#label = label;
    this.#compile = compile;
    this.#inputSchema = inputSchema;
    this.#outputSchema = outputSchema;
    this.#strict = strict;
  }

  get compiled(): boolean {
    return this.#compiled !== undefined || this.#failure !== undefined;
  }

  /** The validators, compiled now if need be; throws TOOL_DEFINITION_INVALID if a schema does not compile. */
  get(): CompiledValidators {
    if (this.#compiled) return this.#compiled;
    if (this.#failure) throw this.#failure;
    try {
      const input = this.#compile(this.#inputSchema);
      const output = this.#outputSchema === undefined ? undefined : this.#compile(this.#outputSchema);
      this.#compiled = output === undefined ? { input } : { input, output };
      return this.#compiled;
    } catch (err) {
      this.#failure = new GatewayError('TOOL_DEFINITION_INVALID', `${this.#label}: its schema does not compile${this.#strict ? ' in strict mode' : ''}: ${(err as Error).message}`);
      throw this.#failure;
    }
  }
}
