import { randomBytes } from 'node:crypto';
import { GatewayError } from '../contract/errors.js';
import type { SecretFileSpec } from '../fs/secret-file.js';

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
