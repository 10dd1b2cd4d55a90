import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError } from '../contract/errors.js';
import type { PromptDefinition, PromptGetter } from '../contract/content-types.js';
import { CallPipeline, type CallPipelineOptions } from './call-pipeline.js';
import { contentAnswer, settled, type ContentOutcome, type ContentRequest } from './content-calls.js';
import { runCompleter, type Completion } from './completions.js';
import { preparePrompt, toPromptMessages, type RegisteredPrompt } from './prompt-definition.js';
import { describeSchemaErrors } from '../lib/schema.js';

export type { RegisteredPrompt };

export type PromptResult = Pick<GetPromptResult, 'description' | 'messages'>;

/**
 * Every prompt of the gateway, shaped like the tool catalog: names unique across plugins,
 * arguments validated with the gateway's Ajv2020 before the getter runs, gets timed out,
 * cancellable, mapped to codes, audited and counted.
 */
export class PromptCatalog {
  readonly #prompts = new Map<string, RegisteredPrompt>();
  readonly #pipeline: CallPipeline;
  readonly #ajv: Ajv2020;
  readonly #changeListeners: Array<() => void> = [];

  /** `pipeline`: the gateway's one path of every call; a catalog of its own makes one from the options. */
  constructor(options: CallPipelineOptions & { ajv: Ajv2020; pipeline?: CallPipeline }) {
    this.#pipeline = options.pipeline ?? new CallPipeline(options);
    this.#ajv = options.ajv;
  }

  /** Checks and compiles a definition without adding it. Throws PROMPT_DEFINITION_INVALID. */
  prepare(plugin: string, definition: PromptDefinition, getter: PromptGetter<never>): RegisteredPrompt {
    const prompt = preparePrompt(this.#ajv, plugin, definition, getter, this.#pipeline.options.defaultTimeoutMs);
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

  /** Renders prompt `name` with `args` for a caller (prompts/get). Never throws: every failure is an outcome with a code. */
  render(name: string, args: unknown, request: ContentRequest): Promise<ContentOutcome<PromptResult>> {
    const prompt = this.#prompts.get(name);
    // No arguments at all is `{}`, as for tools.
    const given = args === undefined ? {} : args;
    return settled(
      this.#pipeline.invoke({
        kind: 'prompt',
        name,
        target: prompt?.target,
        unmatched: () => unknownPromptError(name),
        args: given,
        request,
        check: () => (request.allowsPlugin?.(prompt!.plugin) === false ? forbidden(prompt!, request) : invalidArguments(prompt!, given)),
        handler: async (call): Promise<PromptResult> => {
          const { description } = prompt!.listing;
          return {
            ...(description === undefined ? {} : { description }),
            messages: toPromptMessages(await (prompt!.getter as PromptGetter<unknown>)(given, call), name),
          };
        },
        answer: contentAnswer,
      }),
    );
  }

  /** Values for `argument` of prompt `name` (completion/complete with ref/prompt). */
  complete(name: string, argument: string, value: string, args: Readonly<Record<string, string>>, request: ContentRequest): Promise<ContentOutcome<Completion>> {
    const prompt = this.#prompts.get(name);
    const ref = { name, target: prompt?.target, unmatched: () => unknownPromptError(name), forbidden: () => forbidden(prompt!, request) };
    return runCompleter(this.#pipeline, ref, prompt?.complete[argument], argument, value, args, request);
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

/** PROMPT_ARGUMENTS_INVALID when `args` break the prompt's schema; undefined when they pass. */
function invalidArguments(prompt: RegisteredPrompt, args: unknown): GatewayError | undefined {
  if (prompt.validate(args)) return undefined;
  const details = describeSchemaErrors(prompt.validate.errors);
  const summary = details.map((d) => `${d.path || '(arguments)'} ${d.message}`).join('; ');
  return new GatewayError('PROMPT_ARGUMENTS_INVALID', `Invalid arguments for prompt ${prompt.listing.name}: ${summary}`, { details });
}

function forbidden(prompt: RegisteredPrompt, request: ContentRequest): GatewayError {
  return new GatewayError('FORBIDDEN', `The API key "${request.caller.identity}" has no scope for the prompts of plugin ${prompt.plugin} (it needs "*" or "plugin:${prompt.plugin}").`);
}
