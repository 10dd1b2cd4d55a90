/**
 * Errors a caller is meant to see, and the table a running gateway answers them with: core's
 * codes (error-codes.ts) plus those its plugins declared.
 *
 * Callers compare `err.code`, never `instanceof`: a plugin may load another copy of core.
 */
import { coreErrors, type ErrorSpec } from './error-codes.js';

export { coreErrors, JsonRpcCode, type CoreErrorCode, type ErrorSpec, type McpErrorForm } from './error-codes.js';

export interface GatewayErrorOptions {
  details?: unknown;
  cause?: unknown;
}

/**
 * An error a caller is meant to see: a stable `code`, a message saying what to do, optional
 * structured `details`. Anything thrown that is not one of these reaches callers as
 * INTERNAL_ERROR, with the original logged.
 */
export class GatewayError extends Error {
  readonly code: string;
  readonly details?: unknown;

  constructor(code: string, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
  }
}

/** The table a running gateway uses: core's codes plus those its plugins declared. */
export class ErrorTable {
  readonly #specs = new Map<string, ErrorSpec & { owner: string }>();

  constructor() {
    for (const [code, spec] of Object.entries(coreErrors)) this.#specs.set(code, { ...spec, owner: 'core' });
  }

  /** Adds a plugin's codes; a code already owned by core or another plugin is refused. */
  add(owner: string, specs: Readonly<Record<string, ErrorSpec>>): void {
    for (const [code, spec] of Object.entries(specs)) {
      if (!/^[A-Z][A-Z0-9_]{1,63}$/.test(code)) {
        throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${owner}" declares error code "${code}": codes are UPPER_SNAKE_CASE.`);
      }
      const problem = specProblem(spec);
      if (problem) throw new GatewayError('PLUGIN_LOAD_FAILED', `Plugin "${owner}" declares error code "${code}" with ${problem}.`);
      const existing = this.#specs.get(code);
      if (existing && existing.owner !== owner) {
        throw new GatewayError(
          'PLUGIN_LOAD_FAILED',
          `Plugin "${owner}" declares error code "${code}", which ${existing.owner === 'core' ? 'core' : `plugin "${existing.owner}"`} already owns.`,
        );
      }
      this.#specs.set(code, { ...spec, owner });
    }
  }

  get(code: string): (ErrorSpec & { owner: string }) | undefined {
    return this.#specs.get(code);
  }

  entries(): IterableIterator<[string, ErrorSpec & { owner: string }]> {
    return this.#specs.entries();
  }
}

/**
 * What is wrong with a plugin's ErrorSpec, if anything: a status the HTTP face could send as an
 * error (an integer 400–599), an MCP form, a JSON-RPC code for protocol errors, a description.
 */
function specProblem(spec: unknown): string | undefined {
  const { status, mcp, jsonRpcCode, description } = (spec ?? {}) as Partial<Record<keyof ErrorSpec, unknown>>;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return `status ${JSON.stringify(status)}: it must be an HTTP error status, an integer from 400 to 599`;
  if (mcp !== 'protocol' && mcp !== 'result') return `mcp ${JSON.stringify(mcp)}: it must be "result" (a tool failure) or "protocol" (a JSON-RPC error)`;
  if (mcp === 'protocol' && !Number.isInteger(jsonRpcCode)) return 'mcp "protocol" but no integer jsonRpcCode';
  if (typeof description !== 'string' || description.trim() === '') return 'no description (docs and READMEs list it)';
  return undefined;
}

/** Duck-typed: errors from another copy of core still count. */
export function isGatewayError(err: unknown): err is GatewayError {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    (err as { name?: unknown }).name === 'GatewayError'
  );
}

/** The JSON a caller sees for a failure: never a stack, never an internal message. */
export function errorBody(err: GatewayError): { code: string; message: string; details?: unknown } {
  return err.details === undefined
    ? { code: err.code, message: err.message }
    : { code: err.code, message: err.message, details: err.details };
}
