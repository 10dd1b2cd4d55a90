import { AnnotationsSchema } from '@modelcontextprotocol/core';
import type { Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/server';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError } from '../contract/errors.js';
import type { Completer, ResourceDefinition, ResourceReader } from '../contract/content-types.js';
import type { JsonSchema, ValidateFunction } from '../lib/schema.js';
import { isValidUri, parseUriTemplate, type UriTemplate } from './uri-template.js';

/** A checked resource or resource template, ready to join the catalog. */
export interface RegisteredResource {
  readonly plugin: string;
  readonly definition: ResourceDefinition;
  readonly reader: ResourceReader;
  /** The URI of a static resource, or the template: what must be unique across the gateway. */
  readonly key: string;
  /** Set for a template. */
  readonly template?: UriTemplate;
  readonly validateVariables?: ValidateFunction;
  readonly complete: Readonly<Record<string, Completer>>;
  readonly timeoutMs: number;
  /** The resources/list entry of a static resource. */
  readonly resource?: Resource;
  /** The resources/templates/list entry of a template. */
  readonly resourceTemplate?: ResourceTemplate;
}

/**
 * Checks a resource definition and compiles what it needs (the template, the variables
 * schema) with the gateway's one Ajv2020. Throws RESOURCE_DEFINITION_INVALID saying what to fix.
 * Uniqueness is the catalog's check, not this one's.
 */
export function prepareResource(
  ajv: Ajv2020,
  plugin: string,
  definition: ResourceDefinition,
  reader: ResourceReader,
  defaultTimeoutMs: number,
): RegisteredResource {
  const shown = typeof definition === 'object' && definition !== null ? (definition.uri ?? definition.uriTemplate) : undefined;
  const fail = (why: string): never => {
    throw new GatewayError('RESOURCE_DEFINITION_INVALID', `Plugin "${plugin}", resource "${String(shown)}": ${why}`);
  };
  if (typeof definition !== 'object' || definition === null) fail('the definition must be an object.');
  const { uri, uriTemplate, name, title, description, mimeType, annotations, timeoutMs } = definition;
  if ((uri === undefined) === (uriTemplate === undefined)) fail('give exactly one of "uri" (one resource) and "uriTemplate" (an RFC 6570 template).');
  if (typeof name !== 'string' || name.trim() === '') fail('a name is required.');
  if (typeof reader !== 'function') fail('the reader must be a function.');
  for (const [field, value] of Object.entries({ title, description, mimeType })) {
    if (value !== undefined && typeof value !== 'string') fail(`${field} must be a string.`);
  }
  if (annotations !== undefined && !AnnotationsSchema.safeParse(annotations).success) {
    fail('annotations may have audience (["user", "assistant"]), priority (0 to 1) and lastModified (ISO 8601 with an offset).');
  }
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) fail('timeoutMs must be a positive integer.');
  for (const [field, value] of Object.entries({ onSubscribe: definition.onSubscribe, onUnsubscribe: definition.onUnsubscribe })) {
    if (value !== undefined && typeof value !== 'function') fail(`${field} must be a function.`);
  }
  const common = {
    name,
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(mimeType === undefined ? {} : { mimeType }),
    ...(annotations === undefined ? {} : { annotations: structuredClone(annotations) as Resource['annotations'] }),
  };
  const base = { plugin, definition, reader, timeoutMs: timeoutMs ?? defaultTimeoutMs };

  if (uri !== undefined) {
    if (!isValidUri(uri)) fail('the uri must be an absolute URI (a scheme such as "notes:", then only URI characters; no "{" here: use uriTemplate).');
    const { size } = definition as { size?: unknown };
    if (size !== undefined && !(Number.isInteger(size) && (size as number) >= 0)) fail('size must be a whole number of bytes.');
    if ('variables' in definition || 'complete' in definition) fail('variables and complete belong to a uriTemplate, not to a uri.');
    return { ...base, key: uri, complete: {}, resource: { uri, ...common, ...(size === undefined ? {} : { size: size as number }) } };
  }

  if (typeof uriTemplate !== 'string') return fail('uriTemplate must be a string.');
  let template: UriTemplate;
  try {
    template = parseUriTemplate(uriTemplate);
  } catch (err) {
    return fail(`the uriTemplate is not an RFC 6570 template the gateway can match: ${(err as Error).message}.`);
  }
  if (template.variableNames.length === 0) fail('the uriTemplate has no variable; use "uri" for a single resource.');
  const complete = definition.complete ?? {};
  if (typeof complete !== 'object' || complete === null) fail('complete must map variable names to functions.');
  for (const [variable, completer] of Object.entries(complete)) {
    if (!template.variableNames.includes(variable)) fail(`complete names "${variable}", which is not a variable of the template.`);
    if (typeof completer !== 'function') fail(`complete.${variable} must be a function.`);
  }
  const validateVariables = definition.variables === undefined ? undefined : compileVariables(ajv, definition.variables, template, fail);
  return { ...base, key: uriTemplate, template, validateVariables, complete, resourceTemplate: { uriTemplate, ...common } };
}

function compileVariables(ajv: Ajv2020, schema: JsonSchema, template: UriTemplate, fail: (why: string) => never): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') fail('variables must be a JSON Schema with type "object".');
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [variable, property] of Object.entries(properties)) {
    if (!template.variableNames.includes(variable)) fail(`variables.properties names "${variable}", which is not a variable of the template.`);
    if (property?.type !== 'string') fail(`variables.properties.${variable} must have type "string": URI variables are strings.`);
  }
  try {
    return ajv.compile(schema);
  } catch (err) {
    return fail(`the variables schema does not compile in strict mode: ${(err as Error).message}`);
  }
}
