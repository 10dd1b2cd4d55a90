import { randomBytes } from 'node:crypto';
import { GatewayError } from '../contract/errors.js';
import { loadSecretFile, type SecretFileSpec } from '../fs/secret-file.js';
import { CORE_STORE_MIGRATIONS, SHARED_SECRETS_TABLE } from './core-store-tables.js';
import type { SharedStore } from './shared-store.js';

/** What a plugin's secret may be called (`ctx.store.secret(name)`). */
const SECRET_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** A 32-byte random key, base64url: what every store secret is. */
export function keySpec(label: string, name: string): SecretFileSpec {
  return { label, name, pattern: /^[A-Za-z0-9_-]{43}$/, make: () => randomBytes(32).toString('base64url') };
}

/** The spec of plugin `owner`'s secret `name`, checked; its file and row are `<owner>.<name>.key`. */
export function pluginKeySpec(owner: string, name: string): SecretFileSpec {
  if (!SECRET_NAME.test(name)) {
    throw new GatewayError('CONFIG_INVALID', `Plugin "${owner}" asked for a store secret named ${JSON.stringify(name)}: a name is 1 to 40 of a-z, 0-9 and -, starting with a letter.`);
  }
  return keySpec(`${owner} ${name} key`, `${owner}.${name}.key`);
}

/**
 * The secret `spec` names, the same for every gateway that may see what it signs: gateways on
 * one PostgreSQL store share it in `core_secrets` (the first to ask makes it); gateways on one
 * dataDir, which share the SQLite store, share it in a file there (mode 0600).
 */
export async function storeSecret(store: SharedStore, dataDir: string, spec: SecretFileSpec): Promise<string> {
  if (store.dialect !== 'postgres') return loadSecretFile(dataDir, spec).secret;
  await store.migrate('core', CORE_STORE_MIGRATIONS);
  await store.db
    .insertInto(SHARED_SECRETS_TABLE)
    .values({ name: spec.name, value: spec.make() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
  const row = await store.db.selectFrom(SHARED_SECRETS_TABLE).select('value').where('name', '=', spec.name).executeTakeFirstOrThrow();
  const secret = row.value as string;
  // A row someone emptied or changed would sign with a guessable key: refused, as a bad file is.
  if (!spec.pattern.test(secret)) {
    throw new GatewayError('CONFIG_INVALID', `The shared store's ${SHARED_SECRETS_TABLE} row "${spec.name}" does not hold the ${spec.label} it should; delete the row and restart to make a new one.`);
  }
  return secret;
}
