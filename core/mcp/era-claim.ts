import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../json.js';

/**
 * Whether a message speaks the 2026-07-28 era: it names a protocol version in its `_meta` (the
 * revision's envelope, which 2025 messages never carry) or is `server/discover`, the probe a
 * 2026 client sends first.
 */
export function claimsModernEra(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  if (message.method === 'server/discover') return true;
  const params = message.params;
  return isPlainObject(params) && isPlainObject(params._meta) && params._meta[PROTOCOL_VERSION_META_KEY] !== undefined;
}
