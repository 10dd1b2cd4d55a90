import { sql } from 'kysely';
import type { StoreMigration } from './store-types.js';

/** Event payloads too big for one NOTIFY, sent by reference (see PgEventBridge). */
export const EVENT_PAYLOADS_TABLE = 'core_event_payloads';

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
];
