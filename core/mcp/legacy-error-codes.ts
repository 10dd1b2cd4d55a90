import type { JSONRPCMessage } from '@modelcontextprotocol/server';

/** -32002: "Resource not found" in the 2025-11-25 revision (and the error table's code). */
const RESOURCE_NOT_FOUND_2025 = -32002;

/**
 * A response as a 2025-era client must get it. SDK v2 sends a thrown -32002 as -32602 in both
 * eras (2026-07-28 moved "resource not found" to Invalid Params); a 2025 client is owed the
 * code its revision names, so the error table's RESOURCE_NOT_FOUND, recognised by the string
 * code every gateway error carries in `data`, gets -32002 back.
 */
export function asLegacyResponse(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message)) return message;
  const { error } = message;
  if ((error.data as { code?: unknown } | undefined)?.code !== 'RESOURCE_NOT_FOUND' || error.code === RESOURCE_NOT_FOUND_2025) return message;
  return { ...message, error: { ...error, code: RESOURCE_NOT_FOUND_2025 } };
}
