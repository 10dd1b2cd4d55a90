import type { ErrorTable } from '../contract/errors.js';
import type { RegisteredPrompt } from '../catalog/prompt-catalog.js';
import type { JsonSchema } from '../lib/schema.js';
import { errorResponses, forDocument, successEnvelopeSchema } from './openapi.js';

/** What any request may be refused with before it reaches its route (as in openapi.ts). */
const ADMISSION_CODES = ['HOST_NOT_ALLOWED', 'UNAUTHORIZED', 'RATE_LIMITED'];

const annotations: JsonSchema = {
  type: 'object',
  description: 'MCP annotations: audience, priority (0 to 1), lastModified.',
  properties: {
    audience: { type: 'array', items: { enum: ['user', 'assistant'] } },
    priority: { type: 'number', minimum: 0, maximum: 1 },
    lastModified: { type: 'string' },
  },
};

const common = {
  plugin: { type: 'string', description: 'The plugin that offers it.' },
  name: { type: 'string' },
  title: { type: 'string' },
  description: { type: 'string' },
  mimeType: { type: 'string' },
  annotations,
};

const resourceListing: JsonSchema = {
  type: 'object',
  required: ['plugin', 'uri', 'name'],
  properties: { ...common, uri: { type: 'string' }, size: { type: 'integer', description: 'Size of the raw contents in bytes.' } },
};

const templateListing: JsonSchema = {
  type: 'object',
  required: ['plugin', 'uriTemplate', 'name'],
  properties: { ...common, uriTemplate: { type: 'string', description: 'An RFC 6570 URI template; GET /resources?uri= with a URI it matches.' } },
};

const resourceList: JsonSchema = {
  type: 'object',
  required: ['resources', 'resourceTemplates'],
  properties: { resources: { type: 'array', items: resourceListing }, resourceTemplates: { type: 'array', items: templateListing } },
};

const contents: JsonSchema = {
  type: 'object',
  required: ['contents'],
  properties: {
    contents: {
      type: 'array',
      items: {
        type: 'object',
        required: ['uri'],
        properties: {
          uri: { type: 'string' },
          mimeType: { type: 'string' },
          text: { type: 'string', description: 'Text contents.' },
          blob: { type: 'string', contentEncoding: 'base64', description: 'Binary contents, base64.' },
        },
      },
    },
  },
};

const promptListing: JsonSchema = {
  type: 'object',
  required: ['plugin', 'name', 'argumentsSchema'],
  properties: {
    plugin: common.plugin,
    name: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    arguments: {
      type: 'array',
      description: 'The MCP argument list: every argument is a string.',
      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, description: { type: 'string' }, required: { type: 'boolean' } } },
    },
    argumentsSchema: { type: 'object', description: 'JSON Schema of the arguments: the body of POST /prompts/{name}.' },
  },
};

const promptResult: JsonSchema = {
  type: 'object',
  required: ['messages'],
  properties: {
    description: { type: 'string' },
    messages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['role', 'content'],
        properties: {
          role: { enum: ['user', 'assistant'] },
          content: { type: 'object', description: 'An MCP content block: text, image, audio, resource or resource_link.' },
        },
      },
    },
  },
};

/** Route schemas of `GET /resources` and `GET /prompts`. */
export function contentRouteSchemas(errors: ErrorTable) {
  const everyCode = [...errors.entries()].map(([code]) => code);
  return {
    resources: {
      operationId: 'resources',
      tags: ['gateway'],
      summary: 'The resources and templates, or one resource read (?uri=)',
      description:
        'Without `uri`: every resource and resource template this caller may read. With `uri`: reads that resource (a static URI, or one a template matches); a reader may fail with any code of the table.',
      querystring: { type: 'object', properties: { uri: { type: 'string', description: 'The URI of the resource to read, e.g. notes://readme.' } } },
      response: {
        200: { description: 'The list, or the contents read.', ...successEnvelopeSchema({ oneOf: [resourceList, contents] }) },
        ...errorResponses(errors, everyCode),
      },
    },
    listPrompts: {
      operationId: 'listPrompts',
      tags: ['gateway'],
      summary: 'The prompts with their argument schemas',
      response: {
        200: { description: 'The prompts this caller may get.', ...successEnvelopeSchema({ type: 'array', items: promptListing }) },
        ...errorResponses(errors, ADMISSION_CODES),
      },
    },
  };
}

/**
 * The route schema of `POST /prompts/<name>`: the prompt's own arguments schema is the body.
 * Its operationId has a capital letter, which no tool name has, so it never clashes with one.
 */
export function promptRouteSchema(prompt: RegisteredPrompt, errors: ErrorTable): Record<string, unknown> {
  const { listing } = prompt;
  return {
    operationId: `getPrompt_${listing.name}`,
    tags: [prompt.plugin],
    summary: listing.title ?? listing.name,
    description: listing.description,
    body: forDocument(prompt.argumentsSchema, `prompt.${listing.name}`),
    response: {
      200: { description: 'The prompt, rendered.', ...successEnvelopeSchema(promptResult) },
      ...errorResponses(errors, [...errors.entries()].map(([code]) => code)),
    },
  };
}
