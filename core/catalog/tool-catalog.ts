import { ContentBlockSchema } from '@modelcontextprotocol/core';
import type { Tool } from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import { isToolContent, serialiseResult } from './tool-result.js';
import type { CallContext, ToolDefinition } from '../contract/plugin-types.js';
import { isThenable, type RunningCall } from './running-call.js';
import { CallPipeline, type CallerRequest, type CallPipelineOptions, type Failure, type HandlerTarget, type Invocation } from './call-pipeline.js';
import { describeSchemaErrors, type JsonSchema, type ValidateFunction } from '../lib/schema.js';
import { compileForeignSchema } from './foreign-schema.js';
import type { ListingForm } from '../config/config.js';
import { toolListing } from './lean-listing.js';
import { strictPrecheck } from './strict-precheck.js';
import { ToolValidators, type CompiledValidators } from './tool-validators.js';
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
  /** Who runs its calls, for the pipeline: made once, not per call. */
  readonly target: HandlerTarget;
  /** The tools/list entry, built once. */
  readonly listing: Tool;
}

/** What a call checks of its caller's profile (core/catalog/profiles.ts makes them). */
export interface ProfileBoundary {
  readonly name: string;
  /** Whether `tool` may be called through this profile. */
  allows(tool: RegisteredTool): boolean;
}

export interface CallRequest extends CallerRequest {
  /** Whether this caller may call `tool` (API-key scopes); everyone may when absent. */
  readonly allows?: (tool: RegisteredTool) => boolean;
  /** The profile of the endpoint or key the call came through; every tool when absent. */
  readonly profile?: ProfileBoundary;
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
  | Failure;

export interface ToolCatalogOptions extends CallPipelineOptions {
  ajv: Ajv2020;
  /** The gateway's one path of every call; a catalog of its own makes one from these options. */
  pipeline?: CallPipeline;
  /** What tools/list carries of each tool (`tools.listing`; see lean-listing.ts). Default `lean`. */
  listing?: ListingForm;
  /** Tools the config turns off (`plugins.<name>.exclude`): `add` leaves them out. */
  excludes?: (plugin: string, tool: string) => boolean;
}

/**
 * Every tool of the gateway, whichever plugin gave it: their definitions, listings and
 * validators. Calls go through the gateway's CallPipeline (call-pipeline.ts), so that every
 * transport, and every kind of call, is refused, run, mapped and recorded alike.
 */
export class ToolCatalog {
  readonly #tools = new Map<string, RegisteredTool>();
  readonly #changeListeners: Array<() => void> = [];
  readonly #options: ToolCatalogOptions;
  readonly #pipeline: CallPipeline;
  #listing: Tool[] | undefined;

  constructor(options: ToolCatalogOptions) {
    this.#options = options;
    this.#pipeline = options.pipeline ?? new CallPipeline(options);
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
    if (definition.taskSupport !== undefined && definition.taskSupport !== 'optional' && definition.taskSupport !== 'required') {
      fail('taskSupport must be "optional" or "required".');
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
    const timeoutMs = definition.timeoutMs ?? this.#options.defaultTimeoutMs;
    return { plugin, definition, handler, validators, timeoutMs, target: { plugin, label: name, timeoutMs }, listing };
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
    return this.#pipeline.invoke(new ToolInvocation(name, this.#tools.get(name), args, request));
  }
}

/**
 * One tool call as the pipeline runs it. A class rather than an object of closures: the
 * pipeline calls its methods on it, so a call allocates this one object and no closure.
 */
class ToolInvocation implements Invocation<unknown, CallOutcome> {
  readonly kind = 'tool';
  readonly target: HandlerTarget | undefined;
  /** No arguments at all (an empty REST body, an MCP call without them) is `{}`; an explicit null is not, and fails validation. */
  readonly #given: unknown;
  #validators: CompiledValidators | undefined;

  constructor(
    readonly name: string,
    readonly tool: RegisteredTool | undefined,
    readonly args: unknown,
    readonly request: CallRequest,
  ) {
    this.target = tool?.target;
    this.#given = args === undefined ? {} : args;
  }

  unmatched(): GatewayError {
    return unknownToolError(this.name);
  }

  check(): GatewayError | undefined {
    const tool = this.tool!;
    const refused = callRefusal(tool, this.request);
    if (refused) return refused;
    try {
      this.#validators = tool.validators.get();
    } catch (err) {
      return err as GatewayError;
    }
    return invalidArguments(tool, this.#validators.input, this.#given);
  }

  handler(call: RunningCall): unknown {
    return (this.tool!.handler as (args: unknown, call: CallContext, request: CallRequest) => unknown)(this.#given, call, this.request);
  }

  answer(value: unknown): CallOutcome {
    const tool = this.tool!;
    checkOutput(tool, value, this.#validators!.output);
    return { ok: true, value, json: serialiseResult(value, this.name), tool };
  }
}

/** INVALID_ARGUMENTS with every problem of `args`, or undefined when they pass. */
function invalidArguments(tool: RegisteredTool, validate: ValidateFunction, args: unknown): GatewayError | undefined {
  if (validate(args)) return undefined;
  const details = describeSchemaErrors(validate.errors);
  const summary = details.map((d) => `${d.path || '(arguments)'} ${d.message}`).join('; ');
  return new GatewayError('INVALID_ARGUMENTS', `Invalid arguments for ${tool.listing.name}: ${summary}`, { details });
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

function notInProfileError(tool: RegisteredTool, profile: ProfileBoundary): GatewayError {
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
