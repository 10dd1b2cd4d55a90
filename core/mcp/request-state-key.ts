import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { storeSecret, type SharedStore } from '../storage/shared-store.js';
import { keySpec } from '../storage/store-secrets.js';
import type { RoundState } from '../sessions/input-round.js';

/** How long a client has to answer the questions of one round: a person may be answering them. */
export const REQUEST_STATE_TTL_SECONDS = 600;

const SECRET = keySpec('requestState key', 'request-state.key');

/**
 * The codec that signs the requestState of Multi Round-Trip Requests (HMAC-SHA256, the SDK's)
 * with a key every gateway that may see the retry shares: gateways on one PostgreSQL store
 * share the key in `core_secrets` (the first to start makes it), gateways on one dataDir share
 * it in `request-state.key` (mode 0600). A state expires after REQUEST_STATE_TTL_SECONDS.
 */
export async function requestStateCodec(store: SharedStore, dataDir: string): Promise<RequestStateCodec<RoundState>> {
  const key = await storeSecret(store, dataDir, SECRET);
  return createRequestStateCodec<RoundState>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS });
}
