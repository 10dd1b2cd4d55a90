import { sql } from '../vendor/kysely.js';
import type { StoreMigration } from '../contract/store-types.js';

/** Event payloads too big for one NOTIFY, sent by reference (see PgEventBridge). */
export const EVENT_PAYLOADS_TABLE = 'core_event_payloads';
/** Every gateway's audit rows (see AuditShipper). */
export const SHARED_AUDIT_TABLE = 'core_audit';
/** API keys made with `mcp-gateway keys create` on a PostgreSQL store (see SharedApiKeys). */
export const SHARED_KEYS_TABLE = 'core_api_keys';
/** Secrets every gateway on the store must share, by name (see request-state-key.ts). */
export const SHARED_SECRETS_TABLE = 'core_secrets';
/** Per gateway, the last id of its gateway.db rows in core_audit. */
export const AUDIT_SHIPPED_TABLE = 'core_audit_shipped';

/**
 * Core's own tables in the shared store, applied as owner `core` through the store's runner
 * (the same versions table, prefix rule and advisory lock as plugins' steps). They exist only
 * when the store is PostgreSQL: on SQLite, events stay in the process. Append-only, as every
 * list of steps: never edit one that shipped.
 */
export const CORE_STORE_MIGRATIONS: readonly StoreMigration[] = [
  {
    name: 'event payloads sent by reference',
    async up(db) {
      await sql`CREATE TABLE core_event_payloads (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        body text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`.execute(db);
    },
  },
  {
    name: 'every gateway\'s audit rows',
    async up(db) {
      // The columns of gateway.db's core_audit, plus which gateway and which of its rows.
      await sql`CREATE TABLE core_audit (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        gateway text NOT NULL,
        local_id bigint NOT NULL,
        at text NOT NULL,
        transport text NOT NULL,
        session text,
        caller text,
        plugin text,
        tool text NOT NULL,
        args_digest text NOT NULL,
        args_summary text NOT NULL,
        duration_ms integer NOT NULL,
        outcome text NOT NULL,
        kind text NOT NULL
      )`.execute(db);
      await sql`CREATE INDEX core_audit_at ON core_audit (at)`.execute(db);
      await sql`CREATE TABLE core_audit_shipped (gateway text PRIMARY KEY, last_id bigint NOT NULL)`.execute(db);
    },
  },
  {
    name: 'API keys every gateway accepts',
    async up(db) {
      // The hash only, as in the config: the key itself is shown once and never stored.
      await sql`CREATE TABLE core_api_keys (
        name text PRIMARY KEY,
        hash text NOT NULL UNIQUE,
        scopes text NOT NULL,
        created_at text NOT NULL
      )`.execute(db);
    },
  },
  {
    name: 'the profile an API key is bound to',
    async up(db) {
      await sql`ALTER TABLE core_api_keys ADD COLUMN profile text`.execute(db);
    },
  },
  {
    name: 'secrets every gateway shares',
    async up(db) {
      await sql`CREATE TABLE core_secrets (name text PRIMARY KEY, value text NOT NULL)`.execute(db);
    },
  },
];
