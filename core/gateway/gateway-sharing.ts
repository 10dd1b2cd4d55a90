import { randomUUID } from 'node:crypto';
import type { EventBus } from '../lib/events.js';
import type { ApiKeys } from '../auth/api-keys.js';
import type { Logger } from '../lib/logger.js';
import { AuditShipper } from '../storage/audit-shipper.js';
import { PgEventBridge } from '../storage/pg-events.js';
import { SharedApiKeys } from '../auth/shared-api-keys.js';
import type { SharedStore } from '../storage/shared-store.js';
import type { Database } from '../storage/storage.js';

export interface GatewaySharingOptions {
  readonly store: SharedStore;
  readonly events: EventBus;
  readonly keys: ApiKeys;
  /** gateway.db, where the audit log folds its rows. */
  readonly db: Database;
  /** Whether the audit log is on (`tools.audit`): its rows are shipped. */
  readonly audit: boolean;
  readonly log: Logger;
}

/**
 * What a gateway shares with the other gateways on its PostgreSQL store: events (the bridge),
 * API keys made with `mcp-gateway keys create`, and audit rows. On SQLite each start is a
 * no-op and each part stays undefined: everything stays in the process, as before.
 */
export class GatewaySharing {
  readonly #options: GatewaySharingOptions;
  /** Unique to this run of this gateway: the origin of the events it sends. */
  readonly instanceId = randomUUID();
  #eventBridge: PgEventBridge | undefined;
  #sharedKeys: SharedApiKeys | undefined;
  #auditShipper: AuditShipper | undefined;

  constructor(options: GatewaySharingOptions) {
    this.#options = options;
  }

  get enabled(): boolean {
    return this.#options.store.dialect === 'postgres';
  }

  /** Carries events between the gateways on the database (pg-events.ts). */
  get eventBridge(): PgEventBridge | undefined {
    return this.#eventBridge;
  }

  /**
   * Moves audit rows from gateway.db to the shared `core_audit`; `flush()` the audit log,
   * then `await ship()`, before reading that table.
   */
  get auditShipper(): AuditShipper | undefined {
    return this.#auditShipper;
  }

  /**
   * After the audit log opened (it folds in the journals a killed process left, and the
   * shipper ships them with what gateway.db holds before any call) and before any plugin, so
   * that every event a plugin publishes reaches the other gateways; the keys after the
   * bridge, which brings the news of new ones (with `auth: key` only). Resolves true when
   * the store is PostgreSQL and they started.
   */
  async start(): Promise<boolean> {
    if (!this.enabled) return false;
    const { store, events, keys, db, log } = this.#options;
    this.#eventBridge = await PgEventBridge.start({ store, bus: events, gatewayId: this.instanceId, log });
    if (keys.required) this.#sharedKeys = await SharedApiKeys.start({ store, keys, bus: events, log });
    if (this.#options.audit) this.#auditShipper = await AuditShipper.start({ db, store, log });
    return true;
  }

  /**
   * After the plugins closed (what they published while closing went out) and the audit
   * log's last fold, before gateway.db closes: what cannot ship now waits there. Never throws.
   */
  async close(): Promise<void> {
    this.#sharedKeys?.close();
    await this.#eventBridge?.close().catch((err: unknown) => this.#options.log.warn({ err }, 'the event bridge did not close cleanly'));
    await this.#auditShipper?.close();
  }
}
