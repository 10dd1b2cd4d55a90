// What knowledge says of its work when vectors are missing (OptionalVectors of the public API
// makes them).

/** What a search without vectors says of itself. */
export const LEXICAL_SEARCH = 'search is lexical';
/** What a write without vectors tells its caller. */
export const STORED_WITHOUT_VECTORS = 'stored without vectors: found by its words until vectors work again';

/** Why an embedding call failed, as a `degraded` or `vectors.reason` says it: `embeddings failed (CODE: message)`. */
export function failureReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return `embeddings failed (${String(code ?? 'error')}: ${err instanceof Error ? err.message : String(err)})`;
}
