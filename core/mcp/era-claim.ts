import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { isPlainObject } from '../lib/json.js';

/** The stateless revision the gateway serves beside the 2025 era (the SDK keeps its list to itself). */
export const MODERN_REVISION = '2026-07-28';

/**
 * Whether a message claims the 2026-07-28 era: it names a protocol version in its `_meta`, the
 * revision's envelope, which 2025 messages never carry. The SDK's era entries decide by the
 * same claim (a bare `server/discover` without it is a 2025 message to them too).
 */
export function claimsModernEra(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  const params = message.params;
  return isPlainObject(params) && isPlainObject(params._meta) && params._meta[PROTOCOL_VERSION_META_KEY] !== undefined;
}
