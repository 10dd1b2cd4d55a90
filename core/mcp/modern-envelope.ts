import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, classifyInboundRequest, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from './era-claim.js';

/** The reserved `_meta` keys of the revision's per-request envelope. */
const ENVELOPE_KEYS = [PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, LOG_LEVEL_META_KEY] as const;

/** Envelopes already judged, by their JSON text: a client sends the same one with every request. */
const judged = new Map<string, boolean>();
const MAX_JUDGED = 256;
/** A longer envelope is judged every time, never kept: the memo must not hold what a client pads. */
const MAX_KEPT_CHARS = 4096;

/**
 * The envelope of a request's `_meta` (its reserved keys) when the SDK would accept it for
 * 2026-07-28 and it names that revision; else undefined. The SDK's own classifier judges it
 * (about 17 µs with its zod schemas); the judgement is kept by the envelope's JSON text, which
 * a client repeats on every request, so that a stage answering ahead of the SDK checks what the
 * SDK would check at a fraction of the cost. At most MAX_JUDGED judgements of envelopes up to
 * MAX_KEPT_CHARS long are kept.
 */
export function modernEnvelope(meta: Record<string, unknown>): Record<string, unknown> | undefined {
  if (meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
  const envelope: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) if (Object.hasOwn(meta, key)) envelope[key] = meta[key];
  // An object, not an array: a missing key and a null one must not read alike.
  const text = JSON.stringify(envelope);
  let valid = judged.get(text);
  if (valid === undefined) {
    valid = classifyInboundRequest({ httpMethod: 'POST', body: { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'envelope', _meta: envelope } } }).kind === 'modern';
    if (text.length <= MAX_KEPT_CHARS) {
      if (judged.size >= MAX_JUDGED) judged.clear();
      judged.set(text, valid);
    }
  }
  return valid ? envelope : undefined;
}
