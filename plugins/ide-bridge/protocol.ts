// The wire format of PROTOCOL.md: one JSON envelope per WebSocket text frame. Everything the
// backend sends passes parseInbound before anything else reads it.

/** What the gateway asks of the backend; each carries an `id` the backend answers. */
export const REQUEST_TYPES = [
  'chat.send',
  'chat.history',
  'session.list',
  'session.create',
  'plan.status',
  'build.status',
  'build.list',
  'build.logs',
  'dashboard.overview',
  'dashboard.activity',
  'dashboard.state',
  'dashboard.update',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** What the backend pushes on its own (no `id`). */
export const PUSH_TYPES = [
  'chat.message',
  'session.updated',
  'plan.updated',
  'build.updated',
  'build.log',
  'activity',
  'dashboard.state',
  'dashboard.overview',
] as const;
export type PushType = (typeof PUSH_TYPES)[number];

export type ReplyType = 'response' | 'error';

export interface Envelope<T extends string = string> {
  type: T;
  channel?: string;
  sessionId?: string;
  id?: string;
  data?: Record<string, unknown>;
  timestamp: string;
}

/** A frame that passed the checks: an answer to a request, or a push. */
export type ParsedFrame =
  | { kind: 'push'; envelope: Envelope<PushType> }
  | { kind: 'reply'; envelope: Envelope<ReplyType> & { id: string } };

const PUSHES = new Set<string>(PUSH_TYPES);
/** Keys that would reach an object's prototype if some code ever merged a frame by assignment. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export const isForbiddenKey = (key: string): boolean => FORBIDDEN_KEYS.has(key);
const SHORT = 256;

export class FrameRefused extends Error {}

/** A frame from the backend as an envelope the bridge knows, or FrameRefused saying why it is dropped. */
export function parseInbound(text: string): ParsedFrame {
  let forbidden: string | undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text, (key, value: unknown) => {
      if (isForbiddenKey(key)) forbidden = key;
      return value;
    });
  } catch {
    throw new FrameRefused('not JSON');
  }
  if (forbidden !== undefined) throw new FrameRefused(`holds the key "${forbidden}"`);
  if (!isObject(raw)) throw new FrameRefused('not a JSON object');
  const { type, channel, sessionId, id, data, timestamp } = raw;
  if (typeof type !== 'string') throw new FrameRefused('no type');
  for (const [name, value] of Object.entries({ channel, sessionId, id, timestamp })) {
    if (value !== undefined && (typeof value !== 'string' || value.length > SHORT)) throw new FrameRefused(`${name} is not a string of at most ${SHORT} characters`);
  }
  if (data !== undefined && !isObject(data)) throw new FrameRefused('data is not an object');
  const envelope = {
    type,
    ...(channel !== undefined ? { channel: channel as string } : {}),
    ...(sessionId !== undefined ? { sessionId: sessionId as string } : {}),
    ...(id !== undefined ? { id: id as string } : {}),
    ...(data !== undefined ? { data } : {}),
    timestamp: (timestamp as string | undefined) ?? new Date().toISOString(),
  };
  if (type === 'response' || type === 'error') {
    if (envelope.id === undefined) throw new FrameRefused(`a ${type} without id`);
    return { kind: 'reply', envelope: envelope as Envelope<ReplyType> & { id: string } };
  }
  if (!PUSHES.has(type)) throw new FrameRefused(`unknown type "${type.slice(0, 64)}"`);
  return { kind: 'push', envelope: envelope as Envelope<PushType> };
}

/** A request envelope as sent: `data` is always an object, so the backend reads one shape. */
export function requestEnvelope(type: RequestType, id: string, data: Record<string, unknown>, sessionId?: string): Envelope<RequestType> {
  return {
    type,
    id,
    ...(sessionId !== undefined ? { sessionId } : {}),
    // Core MCP's bridge sent chat on the channel chat:<sessionId>; backends built for it route by it.
    ...(sessionId !== undefined && type.startsWith('chat.') ? { channel: `chat:${sessionId}` } : {}),
    data,
    timestamp: new Date().toISOString(),
  };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
