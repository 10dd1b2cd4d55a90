import { isPlainObject } from '../lib/json.js';
import type { RequestId } from '../contract/replies.js';


/** A JSON-RPC request for tools/call, as far as the envelope goes; params are checked later. */
export interface ToolCallMessage {
  jsonrpc: '2.0';
  id: RequestId;
  method: 'tools/call';
  params?: unknown;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * Whether `value` is a tools/call request with a well-formed JSON-RPC envelope (the checks of
 * the SDK's JSONRPCRequestSchema, written out: the stream transports skip the zod parse for
 * these, the hot path).
 */
export function isToolCallMessage(value: unknown): value is ToolCallMessage {
  if (!isPlainObject(value) || value.method !== 'tools/call' || value.jsonrpc !== '2.0') return false;
  const { id } = value;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  for (const key in value) if (!ENVELOPE_KEYS.has(key)) return false;
  return true;
}
