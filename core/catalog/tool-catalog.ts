import { ContentBlockSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorTable, GatewayError, isGatewayError } from '../errors.js';
import { observeCall, type CallObserver } from './call-observers.js';
import type { Logger } from '../logger.js';
import { isToolContent, serialiseResult } from './tool-result.js';
import { isJsonSerialisable } from '../json.js';
import type { Caller, CallContext, ProgressUpdate, ToolDefinition } from '../plugins/plugin-types.js';
import { isThenable, refusingSignal, RunningCall } from './running-call.js';
import type { ClientLink } from './client-link.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { describeSchemaErrors, type JsonSchema, type ValidateFunction } from './schema.js';
import { compileForeignSchema } from './foreign-schema.js';
import { toolListing, type ListingForm } from './lean-listing.js';
import { strictPrecheck } from './strict-precheck.js';
import { ToolValidators, type CompiledValidators } from './tool-validators.js';
import type { Profile } from './profiles.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';

export const TOOL_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** A relayed tool's `origin` is shown in a column of `mcp-gateway tools`: keep it a label. */
const MAX_ORIGIN_LENGTH = 200;

export interface RegisteredTool {
  readonly plugin: string;
  readonly definition: ToolDefinition;
  readonly handler: CatalogToolHandler;
  /** Arguments and (with an outputSchema) results, compiled on first use. */
  readonly validators: ToolValidators;
  readonly timeoutMs: number;
  /** The tools/list entry, built once. */
  readonly listing: Tool;
}

export interface CallRequest {
  readonly caller: Caller;
  /**
   * Given the call's cancel function once its handler starts; the transport calls it on
   * client cancellation or disconnect (CANCELLED). A hook rather than an AbortSignal: an
   * AbortController per call costs more than a trivial call.
   */
  readonly onCancelable?: (cancel: () => void) => void;
  /** Where progress goes; absent when the client did not ask for it. */
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Whether this caller may call `tool` (API-key scopes); everyone may when absent. */
  readonly allows?: (tool: RegisteredTool) => boolean;
  /** The profile of the endpoint or key the call came through; every tool when absent. */
  readonly profile?: Profile;
  /** The MCP session's link to its client and the request's id; absent over REST and the CLI. */
  readonly client?: ClientLink;
  readonly requestId?: RequestId;
}

/**
 * A tool handler as the catalog runs it. A plugin's takes (args, call) and ignores the third
 * argument; core's gateway_call_tool takes the CallRequest too, to make its nested call as
 * the same caller (reach, profile, session link, progress), which CallContext does not carry.
 */
export type CatalogToolHandler = (args: never, call: CallContext, request: CallRequest) => unknown;

export type CallOutcome =
  /** `json`: the value serialised once, before observers saw the call (serialiseResult). */
  | { readonly ok: true; readonly value: unknown; readonly json: string; readonly tool: RegisteredTool }
  | { readonly ok: false; readonly error: GatewayError; readonly tool?: RegisteredTool };

/** What observers (audit log, metrics) learn of every finished call. */
export interface CallRecord {
  /** Absent for a tool call; for a resource read or a prompt get, `tool` holds the URI or prompt name. */
  readonly kind?: 'resource' | 'prompt';
  readonly tool: string;
  readonly plugin?: string;
  /** For a resource read: the URI or template that served it (a bounded label, unlike the URI). */
  readonly entry?: string;
  readonly caller: Caller;
  readonly args: unknown;
  readonly startedAt: number;
  readonly durationMs: number;
  /** `ok` or the error code. */
  readonly outcome: string;
}

export interface ToolCatalogOptions {
  ajv: Ajv2020;
  errors: ErrorTable;
  log: Logger;
  defaultTimeoutMs: number;
  /** Aborted at shutdown: running calls are cancelled and new ones refused. */
  shutdownSignal: AbortSignal;
  /**
   * Aborted when shutdown begins (the lifecycle's signal), before the listeners close and
   * `shutdownSignal` fires: new calls are refused from then on. A call sees the shutdown at
   * its start, not only when the gateway part closes.
   */
  closingSignal?: AbortSignal;
  /** What tools/list carries of each tool (`tools.listing`; see lean-listing.ts). Default `lean`. */
  listing?: ListingForm;
  /** Tools the config turns off (`plugins.<name>.exclude`): `add` leaves them out. */
  excludes?: (plugin: string, tool: string) => boolean;
}

/**
 * Every tool of the gateway, whichever plugin gave it. Validation, timeouts, cancellation
 * and error mapping happen here, once, so that every transport behaves the same.
 */
export class ToolCatalog {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #observers: CallObserver[] = [];
  readonly #preconditions: Array<() => GatewayError | undefined> = [];
  readonly #changeListeners: Array<() => void> = [];
  readonly #options: ToolCatalogOptions;
  readonly #inFlight = new Set<Promise<CallOutcome>>();
  /** Calls whose handler is running, to cancel them all from one shutdown listener. */
  readonly #running = new Set<RunningCall>();
  /** Aborted at the first of the two shutdown signals: from then on new calls are refused. */
  readonly #refusing: AbortSignal;
  #listing: Tool[] | undefined;

  constructor(options: ToolCatalogOptions) {
    this.#options = options;
    this.#refusing = refusingSignal(options);
    options.shutdownSignal.addEventListener('abort', () => {
      const reason = new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; the call was cancelled.');
      for (const call of this.#running) call.abort(reason);
    });
  }

  /**
   * Checks a definition and compiles its schemas, without adding it (a plugin's tools are
   * added together once its setup succeeds). Throws TOOL_DEFINITION_INVALID.
   */
  prepare(plugin: string, definition: ToolDefinition, handler: CatalogToolHandler): RegisteredTool {
    const fail = (why: string): never => {
      throw new GatewayError('TOOL_DEFINITION_INVALID', `Plugin "${plugin}", tool "${String(definition?.name)}": ${why}`);
    };
    if (typeof definition !== 'object' || definition === null) fail('the definition must be an object.');
    const { name, description, inputSchema, outputSchema, annotations } = definition;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      fail(`the name must match ${TOOL_NAME.source} (snake_case; dots and slashes break several LLM APIs).`);
    }
    if (this.#tools.has(name)) fail(`the name is taken by plugin "${this.#tools.get(name)!.plugin}".`);
    if (typeof description !== 'string' || description.trim() === '') fail('a description is required.');
    if (typeof handler !== 'function') fail('the handler must be a function.');
    if (typeof annotations !== 'object' || annotations === null || typeof annotations.readOnlyHint !== 'boolean') {
      fail('annotations with a boolean readOnlyHint are required.');
    }
    checkObjectSchema(inputSchema, 'inputSchema', fail);
    if (outputSchema !== undefined) checkObjectSchema(outputSchema, 'outputSchema', fail);
    if (definition.timeoutMs !== undefined && !(Number.isInteger(definition.timeoutMs) && definition.timeoutMs > 0)) {
      fail('timeoutMs must be a positive integer.');
    }
    const { origin } = definition;
    if (origin !== undefined && !(typeof origin === 'string' && origin.trim() !== '' && origin.length <= MAX_ORIGIN_LENGTH)) {
      fail(`origin must be a non-empty string of at most ${MAX_ORIGIN_LENGTH} characters.`);
    }
    const foreign = definition.foreignSchemas === true;
    const { ajv } = this.#options;
    const compile = foreign ? compileForeignSchema : (schema: JsonSchema) => ajv.compile(schema);
    const validators = new ToolValidators(`Plugin "${plugin}", tool "${name}"`, compile, inputSchema, outputSchema, !foreign);
    if (foreign) {
      // A relayed server's schema arrives while the gateway runs, not at boot: compiled now, so
      // that a tool which could never be called is refused rather than relayed.
      validators.get();
    } else {
      const problem = strictPrecheck(ajv, inputSchema) ?? (outputSchema === undefined ? undefined : strictPrecheck(ajv, outputSchema));
      if (problem) fail(`its schema does not compile in strict mode: ${problem}`);
    }
    const listing = toolListing(definition, this.#options.listing ?? 'lean');
    return {
      plugin,
      definition,
      handler,
      validators,
      timeoutMs: definition.timeoutMs ?? this.#options.defaultTimeoutMs,
      listing,
    };
  }

  /** Adds prepared tools, less those the config turns off; a name taken since `prepare` is refused. */
  add(offered: readonly RegisteredTool[]): void {
    const excludes = this.#options.excludes;
    const tools = excludes ? offered.filter((t) => !excludes(t.plugin, t.listing.name)) : offered;
    for (const tool of tools) {
      const taken = this.#tools.get(tool.listing.name);
      if (taken) {
        throw new GatewayError(
          'TOOL_DEFINITION_INVALID',
          `Plugin "${tool.plugin}", tool "${tool.listing.name}": the name is taken by plugin "${taken.plugin}".`,
        );
      }
    }
    for (const tool of tools) this.#tools.set(tool.listing.name, tool);
    this.#changed();
  }

  /**
   * Compiles, one tool per turn of the event loop, the schemas no call has needed yet: the
   * first call of each tool then does not pay for it, and a schema strict mode refuses is
   * logged soon after start rather than found by its first caller. It starts `afterMs` after
   * the call, past a client's first requests (initialize, tools/list come within a few tens
   * of ms of a stdio start): started at once, each of those requests waited behind compiles.
   * Stops at shutdown.
   */
  compileInBackground(afterMs = 250): void {
    const { log, shutdownSignal } = this.#options;
    const next = (pending: RegisteredTool[], started: number): void => {
      if (shutdownSignal.aborted) return;
      const tool = pending.shift();
      if (!tool) return void log.debug({ ms: Math.round(performance.now() - started) }, 'tool schemas compiled');
      try {
        tool.validators.get();
      } catch (err) {
        log.error({ plugin: tool.plugin, tool: tool.listing.name, err }, 'a tool schema does not compile; calls to it answer TOOL_DEFINITION_INVALID');
      }
      // Not unref'd: an unref'd immediate does not wake an idle event loop, and the compile
      // would creep along one tool per unrelated event.
      setImmediate(() => next(pending, started));
    };
    // Unref'd: a one-shot CLI command that is done does not wait for it.
    setTimeout(() => next([...this.#tools.values()].filter((tool) => !tool.validators.compiled), performance.now()), afterMs).unref();
  }

  /**
   * Removes `tool` if it is still the one registered under its name; true when it was. Calls
   * already running keep their tool and finish; new calls get UNKNOWN_TOOL.
   */
  remove(tool: RegisteredTool): boolean {
    if (this.#tools.get(tool.listing.name) !== tool) return false;
    this.#tools.delete(tool.listing.name);
    this.#changed();
    return true;
  }

  /**
   * Calls `listener` after every change of the tool set (tools/list_changed, the OpenAPI
   * document). Returns the function that stops it.
   */
  onChange(listener: () => void): () => void {
    this.#changeListeners.push(listener);
    return () => {
      const index = this.#changeListeners.indexOf(listener);
      if (index !== -1) this.#changeListeners.splice(index, 1);
    };
  }

  #changed(): void {
    this.#listing = undefined;
    for (const listener of this.#changeListeners) {
      try {
        listener();
      } catch (err) {
        this.#options.log.error({ err }, 'catalog change listener threw');
      }
    }
  }

  get(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  list(): RegisteredTool[] {
    return [...this.#tools.values()];
  }

  /** The tools/list answer, built once per catalog change. */
  listings(): Tool[] {
    this.#listing ??= this.list().map((t) => t.listing);
    return this.#listing;
  }

  get size(): number {
    return this.#tools.size;
  }

  /** Calls started and not yet answered. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /**
   * Called with a record of every finished call, before its answer leaves; the answer waits
   * for the promise an observer returns (see observeCall). An observer that throws a
   * GatewayError turns the call's outcome into that error (the audit log does, when it cannot
   * record the call); any other throw is logged.
   */
  observe(observer: CallObserver): void {
    this.#observers.push(observer);
  }

  /** A check every call must pass before its handler runs; the error it returns refuses the call. */
  require(precondition: () => GatewayError | undefined): void {
    this.#preconditions.push(precondition);
  }

  /** Validates and runs one call. Never throws: every failure is an outcome with a code. */
  call(name: string, args: unknown, request: CallRequest): Promise<CallOutcome> {
    const outcome = this.invoke(name, args, request);
    return isThenable(outcome) ? outcome : Promise.resolve(outcome);
  }

  /**
   * `call` for the hot paths (the REST bridge): a call whose handler answered synchronously,
   * and whose observers hold nothing (no audit log), is answered (validated, run, recorded)
   * before this returns, without a promise or a microtask between the request and its reply.
   * Never throws.
   */
  invoke(name: string, args: unknown, request: CallRequest): CallOutcome | Promise<CallOutcome> {
    const outcome = this.#call(name, args, request);
    if (!isThenable(outcome)) return outcome;
    this.#inFlight.add(outcome);
    void outcome.finally(() => this.#inFlight.delete(outcome));
    return outcome;
  }

  /**
   * Resolves once every call in flight has settled and been recorded. Shutdown aborts their
   * signals first, so this is quick; it must finish before the database closes, or the audit
   * rows of the cancelled calls would be lost. (A call `invoke` answered synchronously was
   * recorded before it returned: it is never in flight. With the audit log, every call waits
   * for its turn's journal write, in flight until then.)
   */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #call(name: string, args: unknown, request: CallRequest): CallOutcome | Promise<CallOutcome> {
    const startedAt = Date.now();
    const started = performance.now();
    const tool = this.#tools.get(name);
    let outcome: CallOutcome | Promise<CallOutcome>;
    try {
      // No arguments at all (an empty REST body, an MCP call without them) is `{}`; an explicit
      // null is not, and fails validation like any other non-object.
      outcome = tool ? this.#run(tool, args === undefined ? {} : args, request) : { ok: false, error: unknownToolError(name) };
    } catch (err) {
      // Only a validator can get here (a recursive schema on deeply nested input, say); a
      // rejected call() would be an unhandled rejection, which ends the process.
      outcome = { ok: false, tool, error: this.#toCallerError(err, tool!, this.#options) };
    }
    const finish = (settled: CallOutcome) => this.#record(name, tool, args, request, startedAt, started, settled);
    if (!isThenable(outcome)) return finish(outcome);
    // (#awaitHandler catches everything; the second callback is a guard against a future slip.)
    return outcome.then(finish, (err: unknown) => finish({ ok: false, tool, error: this.#toCallerError(err, tool!, this.#options) }));
  }

  /** Hands the record of a finished call to the observers (observeCall), which may change or hold its outcome. */
  #record(name: string, tool: RegisteredTool | undefined, args: unknown, request: CallRequest, startedAt: number, started: number, settled: CallOutcome): CallOutcome | Promise<CallOutcome> {
    const record: CallRecord = {
      tool: name,
      plugin: tool?.plugin,
      caller: request.caller,
      args,
      startedAt,
      durationMs: performance.now() - started,
      outcome: settled.ok ? 'ok' : settled.error.code,
    };
    return observeCall(this.#observers, record, settled, (error): CallOutcome => ({ ok: false, tool, error }), this.#options.log);
  }

  /** The checks, then the handler: synchronously to the end when the handler answers synchronously. */
  #run(tool: RegisteredTool, args: unknown, request: CallRequest): CallOutcome | Promise<CallOutcome> {
    if (this.#refusing.aborted) {
      return { ok: false, tool, error: new GatewayError('SHUTTING_DOWN', 'The gateway is shutting down; retry later.') };
    }
    for (const precondition of this.#preconditions) {
      const refusal = precondition();
      if (refusal) return { ok: false, tool, error: refusal };
    }
    const refused = callRefusal(tool, request);
    if (refused) return { ok: false, tool, error: refused };
    let validators: CompiledValidators;
    try {
      validators = tool.validators.get();
    } catch (err) {
      return { ok: false, tool, error: err as GatewayError };
    }
    if (!validators.input(args)) {
      const details = describeSchemaErrors(validators.input.errors);
      const summary = details.map((d) => `${d.path || '(arguments)'} ${d.message}`).join('; ');
      return {
        ok: false,
        tool,
        error: new GatewayError('INVALID_ARGUMENTS', `Invalid arguments for ${tool.listing.name}: ${summary}`, { details }),
      };
    }
    const call = new RunningCall(
      {
        plugin: tool.plugin,
        tool: tool.listing.name,
        timeoutMs: tool.timeoutMs,
        caller: request.caller,
        onCancelable: request.onCancelable,
        onProgress: request.onProgress,
        client: request.client,
        requestId: request.requestId,
      },
      this.#options.log,
    );
    this.#running.add(call);
    let value: unknown;
    try {
      value = (tool.handler as (args: unknown, call: CallContext, request: CallRequest) => unknown)(args, call, request);
    } catch (err) {
      this.#running.delete(call);
      return { ok: false, tool, error: this.#toCallerError(err, tool, call) };
    }
    if (isThenable(value)) return this.#awaitHandler(tool, call, validators, value);
    this.#running.delete(call);
    // A handler that answered synchronously is done: nothing can have interrupted it but what
    // it did itself (begin the shutdown, say), and then the abort wins, as in `race`.
    return call.abortReason ? { ok: false, tool, error: this.#toCallerError(call.abortReason, tool, call) } : this.#result(tool, call, validators, value);
  }

  async #awaitHandler(tool: RegisteredTool, call: RunningCall, validators: CompiledValidators, pending: PromiseLike<unknown>): Promise<CallOutcome> {
    try {
      return this.#result(tool, call, validators, await call.race(pending));
    } catch (err) {
      return { ok: false, tool, error: this.#toCallerError(err, tool, call) };
    } finally {
      call.settle();
      this.#running.delete(call);
    }
  }

  /** A handler's value, checked against its outputSchema and serialised once. */
  #result(tool: RegisteredTool, call: RunningCall, validators: CompiledValidators, value: unknown): CallOutcome {
    try {
      checkOutput(tool, value, validators.output);
      return { ok: true, value, json: serialiseResult(value, tool.listing.name), tool };
    } catch (err) {
      return { ok: false, tool, error: this.#toCallerError(err, tool, call) };
    }
  }

  /** What a caller may see of a failure: declared codes pass, anything else is INTERNAL_ERROR. */
  #toCallerError(err: unknown, tool: RegisteredTool, { log }: { log: Logger }): GatewayError {
    if (isGatewayError(err) && this.#options.errors.get(err.code) && isJsonSerialisable(err.details)) {
      if (err.code === 'INTERNAL_ERROR') log.error({ err }, 'tool failed');
      return err;
    }
    // Logged in full with plugin and tool; the caller gets a code and a hint, no internals.
    log.error({ err }, 'tool threw an unexpected error');
    return new GatewayError(
      'INTERNAL_ERROR',
      `Tool ${tool.listing.name} (plugin ${tool.plugin}) failed unexpectedly; the gateway log has the details.`,
      { cause: err },
    );
  }
}

/**
 * A result that breaks the tool's own outputSchema, or content blocks that are not MCP
 * content, is the plugin's bug, not the caller's. (Content is checked here because tools/call
 * is answered ahead of the SDK, which checked it; a plain value becomes a text block we make.)
 */
function checkOutput(tool: RegisteredTool, value: unknown, validateOutput: ValidateFunction | undefined): void {
  if (isToolContent(value)) {
    const blocks = ContentBlockSchema.array().safeParse(value.content);
    if (!blocks.success) throw new Error(`Result of ${tool.listing.name} has content that is not MCP content: ${blocks.error.message}`);
  }
  if (!validateOutput) return;
  const structured = isToolContent(value) ? value.structured : value;
  if (structured !== undefined && validateOutput(structured)) return;
  const problems = describeSchemaErrors(validateOutput.errors);
  throw new Error(`Result breaks the outputSchema of ${tool.listing.name}: ${JSON.stringify(problems)}`);
}

/** A tool as GET /tools and `mcp-gateway tools --json` show it: its listing, its plugin and where it runs. */
export function toolEntry(tool: RegisteredTool): { plugin: string; origin?: string } & Tool {
  const { origin } = tool.definition;
  return { plugin: tool.plugin, ...(origin === undefined ? {} : { origin }), ...tool.listing };
}

/** The one UNKNOWN_TOOL error, whichever face was asked (the name is cut: it comes from outside). */
export function unknownToolError(name: string): GatewayError {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return new GatewayError('UNKNOWN_TOOL', `Unknown tool "${shown}". List the tools (tools/list or GET /tools) for valid names.`);
}

/** Why `request` may not call `tool`: its key's scopes (FORBIDDEN), then its profile (NOT_IN_PROFILE); undefined when it may. */
export function callRefusal(tool: RegisteredTool, request: Pick<CallRequest, 'allows' | 'profile' | 'caller'>): GatewayError | undefined {
  if (request.allows && !request.allows(tool)) return forbiddenError(tool, request.caller.identity);
  if (request.profile && !request.profile.allows(tool)) return notInProfileError(tool, request.profile);
  return undefined;
}

function notInProfileError(tool: RegisteredTool, profile: Profile): GatewayError {
  return new GatewayError(
    'NOT_IN_PROFILE',
    `Tool ${tool.listing.name} is not in the profile "${profile.name}" this endpoint or API key serves; use an endpoint of a profile that has it (/mcp/<profile>, --profile), or a key bound to one.`,
  );
}

function forbiddenError(tool: RegisteredTool, keyName: string | undefined): GatewayError {
  return new GatewayError('FORBIDDEN', `The API key "${keyName}" has no scope for tool ${tool.listing.name}.`);
}

function checkObjectSchema(schema: unknown, field: string, fail: (why: string) => never): asserts schema is JsonSchema {
  if (typeof schema !== 'object' || schema === null || (schema as JsonSchema).type !== 'object') {
    fail(`${field} must be a JSON Schema with type "object".`);
  }
}
