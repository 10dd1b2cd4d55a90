import { PromptMessageSchema } from '@modelcontextprotocol/core';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError } from '../contract/errors.js';
import type { Completer, PromptDefinition, PromptGetter } from '../contract/content-types.js';
import type { JsonSchema, ValidateFunction } from '../lib/schema.js';
import { TOOL_NAME } from './tool-catalog.js';
import type { HandlerTarget } from './call-pipeline.js';

/** A checked prompt, ready to join the catalog. */
export interface RegisteredPrompt {
  readonly plugin: string;
  readonly definition: PromptDefinition;
  readonly getter: PromptGetter<never>;
  /** The arguments schema as given, or one that takes no arguments. */
  readonly argumentsSchema: JsonSchema;
  readonly validate: ValidateFunction;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly timeoutMs: number;
  /** Who runs its gets and completions, for the pipeline: made once, not per call. */
  readonly target: HandlerTarget;
  /** The prompts/list entry, built once. */
  readonly listing: Prompt;
}

/** What a prompt without an `arguments` schema accepts: no arguments. */
const NO_ARGUMENTS: JsonSchema = { type: 'object', additionalProperties: false };

/**
 * Checks a prompt definition and compiles its arguments schema with the gateway's one
 * Ajv2020; the MCP `arguments` list is made from the schema's properties. Throws
 * PROMPT_DEFINITION_INVALID saying what to fix. Uniqueness is the catalog's check.
 */
export function preparePrompt(ajv: Ajv2020, plugin: string, definition: PromptDefinition, getter: PromptGetter<never>, defaultTimeoutMs: number): RegisteredPrompt {
  const fail = (why: string): never => {
    throw new GatewayError('PROMPT_DEFINITION_INVALID', `Plugin "${plugin}", prompt "${String(definition?.name)}": ${why}`);
  };
  if (typeof definition !== 'object' || definition === null) fail('the definition must be an object.');
  const { name, title, description, timeoutMs } = definition;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) fail(`the name must match ${TOOL_NAME.source} (snake_case, as for tools).`);
  if (typeof description !== 'string' || description.trim() === '') fail('a description is required.');
  if (title !== undefined && typeof title !== 'string') fail('title must be a string.');
  if (typeof getter !== 'function') fail('the getter must be a function.');
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) fail('timeoutMs must be a positive integer.');

  const schema = definition.arguments ?? NO_ARGUMENTS;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') fail('arguments must be a JSON Schema with type "object".');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as unknown;
  if (!Array.isArray(required) || required.some((r) => typeof r !== 'string' || !(r in properties))) {
    fail('arguments.required must list names of arguments.properties.');
  }
  for (const [argument, property] of Object.entries(properties)) {
    if (property?.type !== 'string') fail(`arguments.properties.${argument} must have type "string": MCP prompt arguments are strings.`);
  }
  const complete = definition.complete ?? {};
  if (typeof complete !== 'object' || complete === null) fail('complete must map argument names to functions.');
  for (const [argument, completer] of Object.entries(complete)) {
    if (!(argument in properties)) fail(`complete names "${argument}", which is not one of arguments.properties.`);
    if (typeof completer !== 'function') fail(`complete.${argument} must be a function.`);
  }
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    return fail(`its arguments schema does not compile in strict mode: ${(err as Error).message}`);
  }
  const args = Object.entries(properties).map(([argument, property]) => ({
    name: argument,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: (required as string[]).includes(argument),
  }));
  const listing: Prompt = {
    name,
    description,
    ...(title === undefined ? {} : { title }),
    ...(args.length === 0 ? {} : { arguments: args }),
  };
  const limit = timeoutMs ?? defaultTimeoutMs;
  return { plugin, definition, getter, argumentsSchema: schema, validate, complete, timeoutMs: limit, target: { plugin, label: `prompt ${name}`, timeoutMs: limit }, listing };
}

/**
 * A getter's return value as prompt messages: a string is one user text message; a list must
 * hold MCP prompt messages. Throws an Error (the plugin's bug, INTERNAL_ERROR) otherwise.
 */
export function toPromptMessages(value: unknown, prompt: string): GetPromptResult['messages'] {
  if (typeof value === 'string') return [{ role: 'user', content: { type: 'text', text: value } }];
  if (!Array.isArray(value)) throw new Error(`the getter of prompt ${prompt} returned neither a string nor a list of messages`);
  return value.map((message: unknown, i) => {
    const checked = PromptMessageSchema.safeParse(message);
    if (!checked.success) throw new Error(`message ${i} of prompt ${prompt} is not an MCP prompt message: ${checked.error.message}`);
    return message as GetPromptResult['messages'][number];
  });
}
