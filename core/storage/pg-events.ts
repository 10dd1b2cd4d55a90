import { sql } from '../vendor/kysely.js';
import type { Client, Notification } from 'pg';
import type { EventBus, GatewayEvent } from '../lib/events.js';
import type { Logger } from '../lib/logger.js';
import { CORE_STORE_MIGRATIONS, EVENT_PAYLOADS_TABLE } from './core-store-tables.js';
import type { SharedStore } from './shared-store.js';

/** The one NOTIFY channel every gateway on the database listens to. */
export const EVENTS_NOTIFY_CHANNEL = 'mcp_gateway_events';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; above this, send a reference. */
export const INLINE_PAYLOAD_BYTES = 7900;
/** Payloads sent by reference are kept this long: any listener fetches it within milliseconds. */
const KEEP_PAYLOADS_MS = 5 * 60_000;
const PRUNE_EVERY_MS = 60_000;
/** Events waiting to be sent while PostgreSQL is slow or down, at most; later ones stay local. */
const MAX_QUEUED_SENDS = 1000;

/** What one NOTIFY carries: the event itself, or a reference to its row in core_event_payloads. */
type WireMessage = { origin: string; channel: string; data: unknown; source: string; time: string } | { origin: string; ref: number };

export interface PgEventBridgeOptions {
  readonly store: SharedStore;
  readonly bus: EventBus;
  /** Unique per gateway process run: a gateway ignores the NOTIFYs it sent itself. */
  readonly gatewayId: string;
  readonly log: Logger;
  /** Reconnect backoff of the LISTEN connection: first wait, and the cap it doubles up to. */
  readonly reconnectMs?: { readonly first: number; readonly max: number };
}

/** `listening` while the LISTEN connection is up; `reconnecting` while it is being replaced. */
export type EventBridgeState = 'connecting' | 'listening' | 'reconnecting' | 'closed';

/**
 * Carries the events published on this gateway to every gateway on the same PostgreSQL
 * database, and theirs to this one's subscribers, with LISTEN/NOTIFY on one channel.
 *
 * Local subscribers get an event synchronously as before; sending it to the others is queued
 * off the publisher's path, in publish order, through the store's pool. Receiving uses one
 * dedicated connection (LISTEN needs a session that stays). Remote delivery is at most once
 * and best effort: an event published while PostgreSQL is unreachable reaches this gateway's
 * subscribers only, and events NOTIFYed while this gateway's LISTEN connection is down are not
 * seen by it (PostgreSQL does not keep them). The connection is reopened with backoff.
 */
export class PgEventBridge {
  readonly #store: SharedStore;
  readonly #bus: EventBus;
  readonly #id: string;
  readonly #log: Logger;
  readonly #backoff: { first: number; max: number };
  #client: Client | undefined;
  #state: EventBridgeState = 'connecting';
  #failures = 0;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #pruneTimer: NodeJS.Timeout | undefined;
  #sending: Promise<void> = Promise.resolve();
  #queued = 0;
  #receiving: Promise<void> = Promise.resolve();
  #stateWaiters: Array<() => void> = [];

  private constructor(options: PgEventBridgeOptions) {
    this.#store = options.store;
    this.#bus = options.bus;
    this.#id = options.gatewayId;
    this.#log = options.log;
    this.#backoff = { first: options.reconnectMs?.first ?? 100, max: options.reconnectMs?.max ?? 5000 };
  }

  /**
   * Applies core's shared-store steps, opens the LISTEN connection and starts relaying the
   * bus. A LISTEN connection that cannot open does not stop the boot (the store answered a
   * moment ago): it is retried with backoff, and events stay local meanwhile.
   */
  static async start(options: PgEventBridgeOptions): Promise<PgEventBridge> {
    await options.store.migrate('core', CORE_STORE_MIGRATIONS);
    const bridge = new PgEventBridge(options);
    await bridge.#connect();
    options.bus.relayTo((event) => bridge.#send(event));
    bridge.#pruneTimer = setInterval(() => void bridge.#prune(), PRUNE_EVERY_MS).unref();
    return bridge;
  }

  get state(): EventBridgeState {
    return this.#state;
  }

  /** Resolves once the LISTEN connection is up (at once if it is); for status and tests. */
  listening(): Promise<void> {
    if (this.#state === 'listening') return Promise.resolve();
    return new Promise((resolve) => this.#stateWaiters.push(resolve));
  }

  /** Stops relaying, sends what is queued, and ends the LISTEN connection. */
  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#setState('closed');
    this.#bus.relayTo(undefined);
    clearTimeout(this.#reconnectTimer);
    clearInterval(this.#pruneTimer);
    await this.#sending;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
    await this.#receiving;
  }

  #setState(state: EventBridgeState): void {
    if (this.#state === 'closed') return;
    this.#state = state;
    if (state !== 'listening') return;
    for (const resolve of this.#stateWaiters.splice(0)) resolve();
  }

  async #connect(): Promise<void> {
    const client = this.#store.newClient('events');
    if (!client) throw new Error('PgEventBridge needs a PostgreSQL store');
    // A connection that drops emits 'error' then 'end'; both must be heard, or the 'error'
    // would end the process.
    client.on('error', (err) => this.#log.warn({ reason: this.#store.redact(err.message) }, 'event LISTEN connection failed'));
    client.on('end', () => this.#lost(client));
    client.on('notification', (message) => this.#onNotification(message));
    this.#client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_NOTIFY_CHANNEL}`);
    } catch (err) {
      this.#log.warn({ reason: this.#store.redact((err as Error).message) }, 'event LISTEN connection could not open; events from other gateways wait for it');
      await client.end().catch(() => {});
      this.#lost(client);
      return;
    }
    if (this.#state === 'closed') return void client.end().catch(() => {});
    if (this.#failures > 0) this.#log.info({ after: this.#failures }, 'event LISTEN connection back; events from other gateways flow again');
    this.#failures = 0;
    this.#setState('listening');
  }

  #lost(client: Client): void {
    // 'end' also follows a failed connect that already scheduled the next try.
    if (this.#client !== client || this.#state === 'closed') return;
    this.#client = undefined;
    this.#setState('reconnecting');
    const wait = Math.min(this.#backoff.first * 2 ** this.#failures, this.#backoff.max);
    this.#failures++;
    if (this.#failures === 1) this.#log.warn('event LISTEN connection lost; reconnecting (events of other gateways are missed until then)');
    this.#reconnectTimer = setTimeout(() => void this.#connect(), wait);
  }

  #send(event: GatewayEvent): void {
    let text: string;
    try {
      text = JSON.stringify({ origin: this.#id, channel: event.channel, data: event.data, source: event.source, time: event.time } satisfies WireMessage);
    } catch (err) {
      this.#log.warn({ err, channel: event.channel }, 'event data is not JSON; it reached this gateway only');
      return;
    }
    if (this.#queued >= MAX_QUEUED_SENDS) {
      this.#log.warn({ channel: event.channel }, 'too many events wait for PostgreSQL; this one reached this gateway only');
      return;
    }
    this.#queued++;
    // One chain keeps the publish order, whether a payload goes inline or by reference.
    this.#sending = this.#sending
      .then(() => this.#notify(text))
      .catch((err: unknown) => this.#log.warn({ err, channel: event.channel }, 'event could not be sent to other gateways; it reached this gateway only'))
      .finally(() => this.#queued--);
  }

  async #notify(text: string): Promise<void> {
    const db = this.#store.db;
    let payload = text;
    if (Buffer.byteLength(text) > INLINE_PAYLOAD_BYTES) {
      const row = await db.insertInto(EVENT_PAYLOADS_TABLE).values({ body: text }).returning('id').executeTakeFirstOrThrow();
      payload = JSON.stringify({ origin: this.#id, ref: Number(row.id) } satisfies WireMessage);
    }
    await sql`select pg_notify(${EVENTS_NOTIFY_CHANNEL}, ${payload})`.execute(db);
  }

  #onNotification(message: Notification): void {
    if (message.channel !== EVENTS_NOTIFY_CHANNEL || message.payload === undefined) return;
    let wire: WireMessage;
    try {
      wire = JSON.parse(message.payload) as WireMessage;
    } catch {
      return this.#log.debug('a NOTIFY on the events channel that is not JSON was ignored');
    }
    // Delivered locally when it was published.
    if (wire?.origin === this.#id) return;
    // In order: an event by reference is fetched before the ones NOTIFYed after it are delivered.
    this.#receiving = this.#receiving.then(() => this.#deliver(wire)).catch((err: unknown) => this.#log.warn({ err }, 'an event from another gateway could not be read; it was skipped'));
  }

  async #deliver(wire: WireMessage): Promise<void> {
    let message: unknown = wire;
    if ('ref' in wire) {
      const row = await this.#store.db.selectFrom(EVENT_PAYLOADS_TABLE).select('body').where('id', '=', wire.ref).executeTakeFirst();
      if (!row) return this.#log.warn({ ref: wire.ref }, 'an event sent by reference was pruned before it was read; it was skipped');
      message = JSON.parse(row.body as string);
    }
    const event = eventOf(message);
    if (!event) return this.#log.debug('a NOTIFY on the events channel without an event was ignored');
    this.#bus.receive(event);
  }

  async #prune(): Promise<void> {
    try {
      const cutoff = new Date(Date.now() - KEEP_PAYLOADS_MS);
      await this.#store.db.deleteFrom(EVENT_PAYLOADS_TABLE).where('created_at', '<', cutoff).execute();
    } catch (err) {
      this.#log.debug({ err }, 'old event payloads could not be pruned; the next round tries again');
    }
  }
}

/** The event a message holds, in the same shape local subscribers get; undefined if malformed. */
function eventOf(message: unknown): GatewayEvent | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { channel, data, source, time } = message as Record<string, unknown>;
  if (typeof channel !== 'string' || typeof source !== 'string' || typeof time !== 'string') return undefined;
  return { channel, data, source, time };
}
