// Schemas the ide_ tools share: ids, records as the cache keeps them, the stale flag.
const ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$';

export const sessionId = { type: 'string', pattern: ID_PATTERN, description: 'From ide_session_list or ide_session_create.' } as const;
export const buildId = { type: 'string', pattern: ID_PATTERN, description: 'From ide_build_list.' } as const;
/**
 * An integer from 1 to `maximum`, `value` when absent: tool limits and config counts alike.
 * Tool arguments go without a description where the tool's own says what the count counts.
 */
export const limit = <D extends string | undefined = undefined>(value: number, maximum: number, description?: D) =>
  ({ type: 'integer', minimum: 1, maximum, default: value, ...(description === undefined ? {} : { description }) }) as const;
/** A count in an answer. */
export const count = { type: 'integer', minimum: 0 } as const;

export const stale = {
  type: 'boolean',
  description: 'true: the backend could not be asked (disconnected, too slow, breaker open) and this is what the gateway last heard, which may be out of date.',
} as const;

const string = { type: 'string' } as const;
const time = { type: 'string', description: 'ISO 8601.' } as const;

export const sessionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'status', 'createdAt'],
  properties: { id: string, name: string, status: string, createdAt: time },
} as const;

export const messageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'content', 'timestamp'],
  properties: { role: { type: 'string', description: 'user, assistant, system, ...' }, content: string, timestamp: time },
} as const;

export const buildSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'repo', 'branch', 'status', 'duration', 'startedAt'],
  properties: {
    id: string,
    repo: string,
    branch: string,
    status: { type: 'string', description: 'The backend\'s word: queued, running, success, failed, ... ("unknown" when never heard of).' },
    duration: { type: ['number', 'null'], description: 'Seconds, once finished.' },
    startedAt: { type: ['string', 'null'], description: 'ISO 8601; null for a build not started yet (queued).' },
  },
} as const;

export const activitySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'message', 'timestamp'],
  properties: { type: string, message: string, timestamp: time },
} as const;

/** A closed output object. */
export const output = <P extends Record<string, unknown>>(properties: P) =>
  ({ type: 'object', additionalProperties: false, required: Object.keys(properties) as Array<keyof P & string>, properties }) as const;
