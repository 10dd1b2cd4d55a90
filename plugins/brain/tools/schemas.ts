// The brain tools' schemas: one source for validation, tools/list, REST and OpenAPI. A remote
// gateway back end sends these same arguments to the other gateway's REST bridge.
import { IMPORT_BATCH } from '../brain.js';
import { MEMORY_TYPES } from '../model.js';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
// Arguments carry prose only where the name and the schema leave the model guessing: every
// session pays for tools/list before its first call.
const text = (maxLength: number, description?: string) => ({ type: 'string', minLength: 1, maxLength, ...(description ? { description } : {}) }) as const;
const nullable = (schema: object) => ({ anyOf: [schema, { type: 'null' }] }) as const;

const memoryType = { enum: MEMORY_TYPES } as const;
/** Ids as stored: UUIDs here and on another gateway, an OpenBrain server's own ids there. */
const memoryId = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$' } as const;
const newId = { type: 'string', pattern: UUID } as const;
const tag = { type: 'string', minLength: 1, maxLength: 64 } as const;
const org = text(128);
const project = text(128);
const confidence = { type: 'number', minimum: 0, maximum: 1 } as const;

export const rememberInput = {
  type: 'object',
  additionalProperties: false,
  required: ['content', 'type'],
  properties: {
    content: { type: 'string', minLength: 1, description: 'Self-contained: it is read later without this conversation.' },
    type: memoryType,
    tags: { type: 'array', items: tag, maxItems: 32, uniqueItems: true, default: [] },
    org,
    project,
    confidence: { ...confidence, default: 0.8 },
    supersedes: { ...memoryId, description: 'Id of the memory this one corrects; recall leaves that one out from now on.' },
    expires_in: { type: 'integer', minimum: 1, maximum: 10 * 365 * 24 * 3600, description: 'Seconds until recall leaves it out; default never.' },
    id: { ...newId, description: 'A fresh UUID of yours, so that a retry never stores twice.' },
  },
} as const;

const filterProperties = {
  org,
  project,
  type: memoryType,
  types: { type: 'array', items: memoryType, minItems: 1, uniqueItems: true, description: 'Any of these; type adds one more.' },
  agent_id: text(128, 'Who wrote them.'),
  min_confidence: confidence,
  tags: { type: 'array', items: tag, minItems: 1, maxItems: 32, uniqueItems: true, description: 'Memories carrying all of them.' },
  include_superseded: { type: 'boolean', default: false },
  include_expired: { type: 'boolean', default: false },
} as const;

export const recallInput = {
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: text(4000),
    top_k: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    mode: { enum: ['auto', 'hybrid', 'lexical', 'vector'], default: 'auto', description: 'auto: hybrid if vectors exist, else lexical.' },
    ...filterProperties,
  },
} as const;

export const forgetInput = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: memoryId,
    reason: text(1000),
  },
} as const;

export const listInput = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...filterProperties,
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    order: { enum: ['newest', 'oldest'], default: 'newest' },
    cursor: text(512, "The last page's next_cursor."),
    include_forgotten: { type: 'boolean', default: false },
  },
} as const;

export const memorySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'agent_id', 'type', 'content', 'tags', 'org', 'project', 'confidence', 'supersedes_id', 'superseded_by', 'expires_at', 'created_at', 'updated_at', 'forgotten_at', 'forget_reason'],
  properties: {
    id: { type: 'string' },
    agent_id: { type: 'string' },
    type: { enum: MEMORY_TYPES },
    content: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    org: nullable({ type: 'string' }),
    project: nullable({ type: 'string' }),
    confidence,
    supersedes_id: nullable({ type: 'string' }),
    superseded_by: nullable({ type: 'string' }),
    expires_at: nullable({ type: 'string', format: 'date-time' }),
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    forgotten_at: nullable({ type: 'string', format: 'date-time' }),
    forget_reason: nullable({ type: 'string' }),
  },
} as const;

export const importInput = {
  type: 'object',
  additionalProperties: false,
  required: ['memories'],
  properties: {
    memories: {
      type: 'array',
      minItems: 1,
      maxItems: IMPORT_BATCH,
      // The limits of brain_remember's arguments, for memories that were written elsewhere.
      items: {
        ...memorySchema,
        properties: {
          ...memorySchema.properties,
          id: newId,
          agent_id: text(128),
          content: { type: 'string' },
          tags: { type: 'array', items: tag, maxItems: 32, uniqueItems: true },
          org: nullable(org),
          project: nullable(project),
          supersedes_id: nullable(memoryId),
          superseded_by: nullable(memoryId),
          forget_reason: nullable(text(1000)),
        },
      },
    },
  },
} as const;

const recalledSchema = { ...memorySchema, required: [...memorySchema.required, 'score'], properties: { ...memorySchema.properties, score: { type: 'number', minimum: 0, maximum: 1 } } } as const;
const partial = { type: 'string', description: "Set when the remote was down: only the memories this gateway wrote were searched." } as const;

export const rememberOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['memory', 'duplicate', 'queued'],
  properties: {
    memory: memorySchema,
    duplicate: { type: 'boolean', description: 'The id was stored with this content before: nothing new was stored.' },
    queued: { type: 'boolean', description: 'The remote is down: the memory waits in the queue and is sent when it is back.' },
  },
} as const;

export const recallOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['count', 'memories', 'mode'],
  properties: {
    count: { type: 'integer', minimum: 0 },
    memories: { type: 'array', items: recalledSchema },
    mode: { enum: ['hybrid', 'lexical', 'vector'], description: 'How the memories were ranked.' },
    partial,
    degraded: { type: 'string', description: 'Why the ranking asked for was not possible (no vectors).' },
  },
} as const;

export const forgetOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'forgotten', 'forgotten_at'],
  properties: {
    id: { type: 'string' },
    forgotten: { type: 'boolean', description: 'False when it had been forgotten before.' },
    forgotten_at: { type: 'string', format: 'date-time' },
  },
} as const;

export const listOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['count', 'memories'],
  properties: {
    count: { type: 'integer', minimum: 0 },
    memories: { type: 'array', items: memorySchema },
    next_cursor: { type: 'string', description: 'More memories follow: pass this as cursor.' },
    partial,
  },
} as const;

export const importOutput = {
  type: 'object',
  additionalProperties: false,
  required: ['imported', 'skipped', 'forgotten'],
  properties: {
    imported: { type: 'integer', minimum: 0, description: 'Memories stored.' },
    skipped: { type: 'integer', minimum: 0, description: 'Memories whose id was here already.' },
    forgotten: { type: 'integer', minimum: 0, description: 'Memories live here that the import carried as forgotten.' },
  },
} as const;
