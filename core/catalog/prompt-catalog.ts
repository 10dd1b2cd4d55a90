import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError, isGatewayError } from '../errors.js';
import type { CallObserver } from './call-observers.js';
import type { PromptDefinition, PromptGetter } from '../plugins/content-types.js';
import { ContentCalls, type ContentCatalogOptions, type ContentOutcome, type ContentRequest } from './content-calls.js';
import { runCompleter, type Completion } from './completions.js';
import { preparePrompt, toPromptMessages, type RegisteredPrompt } from './prompt-definition.js';
import { describeSchemaErrors } from './schema.js';
import type { CallRecord } from './tool-catalog.js';

export type { RegisteredPrompt };

export type PromptResult = Pick<GetPromptResult, 'description' | 'messages'>;

/**
 * Every prompt of the gateway, shaped like the tool catalog: names unique across plugins,
 * arguments validated with the gateway's Ajv2020 before the getter runs, gets timed out,
 * cancellable, mapped to codes, audited and counted.
 */
export class PromptCatalog {
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #calls: ContentCalls;
  readonly #ajv: Ajv2020;
  readonly #changeListeners: Array<() => void> = [];

  constructor(options: ContentCatalogOptions & { ajv: Ajv2020 }) {
    this.#calls = new ContentCalls(options);
    this.#ajv = options.ajv;
  }

  /** Checks and compiles a definition without adding it. Throws PROMPT_DEFINITION_INVALID. */
  prepare(plugin: string, definition: PromptDefinition, getter: PromptGetter<never>): RegisteredPrompt {
    const prompt = preparePrompt(this.#ajv, plugin, definition, getter, this.#calls.options.defaultTimeoutMs);
    const taken = this.#prompts.get(prompt.listing.name);
    if (taken) throw clash(prompt, taken);
    return prompt;
  }

  /** Adds prepared prompts together, or none of them when one's name is taken. */
  add(prompts: readonly RegisteredPrompt[]): void {
    const batch = new Map<string, RegisteredPrompt>();
    for (const prompt of prompts) {
      const taken = this.#prompts.get(prompt.listing.name) ?? batch.get(prompt.listing.name);
      if (taken) throw clash(prompt, taken);
      batch.set(prompt.listing.name, prompt);
    }
    for (const prompt of prompts) this.#prompts.set(prompt.listing.name, prompt);
    if (prompts.length > 0) this.#changed();
  }

  /** Removes prompts (a live prompt withdrawn, a plugin closing); others are left alone. */
  remove(prompts: readonly RegisteredPrompt[]): void {
    let removed = false;
    for (const prompt of prompts) {
      if (this.#prompts.get(prompt.listing.name) === prompt) removed = this.#prompts.delete(prompt.listing.name) || removed;
    }
    if (removed) this.#changed();
  }

  /** Called after every change of the list (for notifications/prompts/list_changed). */
  onChange(listener: () => void): void {
    this.#changeListeners.push(listener);
  }

  get(name: string): RegisteredPrompt | undefined {
    return this.#prompts.get(name);
  }

  list(): RegisteredPrompt[] {
    return [...this.#prompts.values()];
  }

  /** The prompts/list entries `allowsPlugin` lets a caller see. */
  listings(allowsPlugin?: (plugin: string) => boolean): Prompt[] {
    return this.list().filter((p) => allowsPlugin?.(p.plugin) ?? true).map((p) => p.listing);
  }

  get size(): number {
    return this.#prompts.size;
  }

  observe(observer: CallObserver): void {
    this.#calls.observe(observer);
  }

  require(precondition: () => GatewayError | undefined): void {
    this.#calls.require(precondition);
  }

  drain(): Promise<void> {
    return this.#calls.drain();
  }

  /** Renders prompt `name` with `args` for a caller (prompts/get). Never throws: every failure is an outcome with a code. */
  render(name: string, args: unknown, request: ContentRequest): Promise<ContentOutcome<PromptResult>> {
    return this.#calls.track(this.#get(name, args, request));
  }

  /** Values for `argument` of prompt `name` (completion/complete with ref/prompt). */
  async complete(name: string, argument: string, value: string, args: Readonly<Record<string, string>>, request: ContentRequest): Promise<ContentOutcome<Completion>> {
    const prompt = this.#prompts.get(name);
    if (!prompt) return { ok: false, error: unknownPromptError(name) };
    if (request.allowsPlugin?.(prompt.plugin) === false) return { ok: false, error: forbidden(prompt, request) };
    const target = { plugin: prompt.plugin, label: `prompt ${name}`, timeoutMs: prompt.timeoutMs };
    return runCompleter(this.#calls, target, prompt.complete[argument], value, args, request);
  }

  async #get(name: string, args: unknown, request: ContentRequest): Promise<ContentOutcome<PromptResult>> {
    const startedAt = Date.now();
    const started = performance.now();
    const prompt = this.#prompts.get(name);
    // No arguments at all is `{}`, as for tools.
    const given = args === undefined ? {} : args;
    let outcome: ContentOutcome<PromptResult>;
    try {
      outcome = prompt ? await this.#run(prompt, given, request) : { ok: false, error: unknownPromptError(name) };
    } catch (err) {
      // Only a validator can get here (a recursive schema on deeply nested input, say).
      this.#calls.options.log.error({ err, prompt: name }, 'prompt get failed');
      outcome = { ok: false, error: isGatewayError(err) ? err : new GatewayError('INTERNAL_ERROR', `Prompt ${name} failed unexpectedly; the gateway log has the details.`, { cause: err }) };
    }
    const record: CallRecord = {
      kind: 'prompt',
      tool: name,
      plugin: prompt?.plugin,
      caller: request.caller,
      args: given,
      startedAt,
      durationMs: performance.now() - started,
      outcome: outcome.ok ? 'ok' : outcome.error.code,
    };
    return this.#calls.record(record, outcome);
  }

  async #run(prompt: RegisteredPrompt, args: unknown, request: ContentRequest): Promise<ContentOutcome<PromptResult>> {
    const refusal = this.#calls.refusal();
    if (refusal) return { ok: false, error: refusal };
    if (request.allowsPlugin?.(prompt.plugin) === false) return { ok: false, error: forbidden(prompt, request) };
    const { name, description } = prompt.listing;
    if (!prompt.validate(args)) {
      const details = describeSchemaErrors(prompt.validate.errors);
      const summary = details.map((d) => `${d.path || '(arguments)'} ${d.message}`).join('; ');
      return { ok: false, error: new GatewayError('PROMPT_ARGUMENTS_INVALID', `Invalid arguments for prompt ${name}: ${summary}`, { details }) };
    }
    const target = { plugin: prompt.plugin, label: `prompt ${name}`, timeoutMs: prompt.timeoutMs };
    return this.#calls.run(target, request, async (call) => ({
      ...(description === undefined ? {} : { description }),
      messages: toPromptMessages(await (prompt.getter as PromptGetter<unknown>)(args, call), name),
    }));
  }

  #changed(): void {
    for (const listener of this.#changeListeners) listener();
  }
}

export function unknownPromptError(name: string): GatewayError {
  const shown = name.length > 80 ? `${name.slice(0, 80)}…` : name;
  return new GatewayError('UNKNOWN_PROMPT', `Unknown prompt "${shown}". List the prompts (prompts/list or GET /prompts) for valid names.`);
}

function clash(prompt: RegisteredPrompt, taken: RegisteredPrompt): GatewayError {
  return new GatewayError('PROMPT_DEFINITION_INVALID', `Plugin "${prompt.plugin}", prompt "${prompt.listing.name}": the name is taken by plugin "${taken.plugin}".`);
}

function forbidden(prompt: RegisteredPrompt, request: ContentRequest): GatewayError {
  return new GatewayError('FORBIDDEN', `The API key "${request.caller.identity}" has no scope for the prompts of plugin ${prompt.plugin} (it needs "*" or "plugin:${prompt.plugin}").`);
}
