import { randomBytes } from 'node:crypto';
import { createRequestStateCodec, type RequestStateCodec } from '@modelcontextprotocol/server';
import { loadSecretFile } from '../secret-file.js';
import { CORE_STORE_MIGRATIONS, SHARED_SECRETS_TABLE } from '../storage/core-store-tables.js';
import type { SharedStore } from '../storage/shared-store.js';
import type { RoundState } from './input-round.js';

/** How long a client has to answer the questions of one round: a person may be answering them. */
export const REQUEST_STATE_TTL_SECONDS = 600;

const SECRET = { label: 'requestState key', name: 'request-state.key', pattern: /^[A-Za-z0-9_-]{43}$/, make: () => randomBytes(32).toString('base64url') };

/**
 * The codec that signs the requestState of Multi Round-Trip Requests (HMAC-SHA256, the SDK's)
 * with a key every gateway that may see the retry shares: gateways on one PostgreSQL store
 * share the key in `core_secrets` (the first to start makes it), gateways on one dataDir share
 * it in `request-state.key` (mode 0600). A state expires after REQUEST_STATE_TTL_SECONDS.
 */
export async function requestStateCodec(store: SharedStore, dataDir: string): Promise<RequestStateCodec<RoundState>> {
  const key = store.dialect === 'postgres' ? await sharedSecret(store, SECRET.name, SECRET.make) : loadSecretFile(dataDir, SECRET).secret;
  return createRequestStateCodec<RoundState>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS });
}

/** The secret `name` in the store, made by whichever gateway asks first. */
async function sharedSecret(store: SharedStore, name: string, make: () => string): Promise<string> {
  await store.migrate('core', CORE_STORE_MIGRATIONS);
  await store.db
    .insertInto(SHARED_SECRETS_TABLE)
    .values({ name, value: make() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await store.db.selectFrom(SHARED_SECRETS_TABLE).select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value as string;
}
