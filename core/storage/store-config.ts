import type { JsonSchema } from '../lib/schema.js';
import { parsePostgresUrl, type PostgresStoreConfig } from './postgres-options.js';
import type { StoreHealthOptions } from './store-health.js';

/** `storage` in gateway.config.yaml, resolved. */
export interface StorageConfig {
  /** `sqlite`: `<dataDir>/shared.db`, nothing to set up. `{ postgres }`: a server several gateways share. */
  readonly shared: 'sqlite' | { readonly postgres: PostgresStoreConfig };
  /** How /health probes the store; the schema's defaults when absent (store-health.ts). */
  readonly healthCheck?: StoreHealthOptions;
}

const postgresSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url'],
  properties: {
    url: { type: 'string', minLength: 1 },
    poolSize: { type: 'integer', minimum: 1, maximum: 1000, default: 10 },
    statementTimeoutMs: { type: 'integer', minimum: 0, default: 30_000 },
    connectTimeoutMs: { type: 'integer', minimum: 100, default: 10_000 },
    ssl: {
      type: 'object',
      additionalProperties: false,
      properties: {
        rejectUnauthorized: { type: 'boolean', default: true },
        ca: { type: 'string', minLength: 1 },
      },
    },
  },
};

/**
 * The `storage` section of the config schema. `if`/`then`/`else` rather than `oneOf`, so that a
 * mistake is reported against the one shape the author meant (a string, or the mapping).
 */
export const storageConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    shared: {
      default: 'sqlite',
      if: { type: 'string' },
      then: { enum: ['sqlite'] },
      else: { type: 'object', additionalProperties: false, required: ['postgres'], properties: { postgres: postgresSchema } },
    },
    // A load balancer may ask /health every second from several places: one probe query at a
    // time, its answer kept for cacheMs.
    healthCheck: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        cacheMs: { type: 'integer', minimum: 0, maximum: 600_000, default: 2000 },
        timeoutMs: { type: 'integer', minimum: 50, maximum: 600_000, default: 2000 },
      },
    },
  },
};

/**
 * Checks what the schema cannot (the URL's shape, without ever quoting it back) and makes
 * `ssl.ca` absolute with `at`. Throws CONFIG_INVALID naming the file and key.
 */
export function resolveStorageConfig(storage: StorageConfig, at: (path: string) => string, where: string): StorageConfig {
  if (storage.shared === 'sqlite') return storage;
  const postgres = storage.shared.postgres;
  parsePostgresUrl(postgres.url, where);
  if (!postgres.ssl?.ca) return storage;
  return { ...storage, shared: { postgres: { ...postgres, ssl: { ...postgres.ssl, ca: at(postgres.ssl.ca) } } } };
}
