import type { Logger } from './logger.js';

export interface GatewayEvent {
  readonly channel: string;
  readonly data: unknown;
  /** The plugin (or `core`) that published it. */
  readonly source: string;
  /** ISO 8601. */
  readonly time: string;
}

export type EventHandler = (event: GatewayEvent) => void;

/** Where events published here go besides this process's subscribers (another gateway). */
export type EventRelay = (event: GatewayEvent) => void;

const CHANNEL = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/i;

/**
 * Publish/subscribe by dot-separated channel. A pattern segment `*` matches exactly one
 * segment (`process.*` matches `process.exit`), `**` matches the rest, however long.
 * Delivery is synchronous and a throwing subscriber is logged, never passed to the publisher:
 * subscribers that need to do slow work queue it themselves.
 */
export class EventBus {
  readonly #subscriptions = new Set<{ pattern: string[]; handler: EventHandler }>();
  readonly #log: Logger;
  #relay: EventRelay | undefined;

  constructor(log: Logger) {
    this.#log = log;
  }

  /**
   * Delivers `data` to every subscriber of a matching pattern, here and (through the relay) on
   * every gateway sharing the store. Subscribers include /events clients whose key holds only
   * the `events` scope, with no tool rights at all: publish what any of them may see (ids,
   * names, states), never what the tools show only to some callers (a private message's text).
   */
  publish(source: string, channel: string, data: unknown): void {
    if (!CHANNEL.test(channel)) throw new TypeError(`Invalid event channel "${channel}": use dot-separated words.`);
    const event: GatewayEvent = { channel, data, source, time: new Date().toISOString() };
    this.#deliver(event);
    if (this.#relay) {
      try {
        this.#relay(event);
      } catch (err) {
        this.#log.error({ err, channel }, 'event relay threw; the event reached this gateway only');
      }
    }
  }

  /**
   * Delivers an event published on another gateway to this process's subscribers only: it is
   * never relayed again, so two gateways never bounce an event between them.
   */
  receive(event: GatewayEvent): void {
    this.#deliver(event);
  }

  /**
   * Sets where events published here are also sent (one relay; `undefined` removes it). The
   * relay is called after local delivery, synchronously: it queues its own slow work.
   */
  relayTo(relay: EventRelay | undefined): void {
    this.#relay = relay;
  }

  #deliver(event: GatewayEvent): void {
    const { channel } = event;
    const segments = channel.split('.');
    // A copy: a subscriber that subscribes while handling must not get this event (and could
    // otherwise keep the loop going forever).
    for (const subscription of [...this.#subscriptions]) {
      if (!matches(subscription.pattern, segments)) continue;
      try {
        subscription.handler(event);
      } catch (err) {
        this.#log.error({ err, channel }, 'event subscriber threw');
      }
    }
  }

  /** Throws a TypeError for a pattern that {@link isValidPattern} refuses. */
  subscribe(pattern: string, handler: EventHandler): () => void {
    if (!isValidPattern(pattern)) {
      throw new TypeError(`Invalid event pattern "${pattern}": use dot-separated words, \`*\` for one word, \`**\` at the end for the rest.`);
    }
    const subscription = { pattern: pattern.split('.'), handler };
    this.#subscriptions.add(subscription);
    return () => this.#subscriptions.delete(subscription);
  }

  get subscriberCount(): number {
    return this.#subscriptions.size;
  }
}

function matches(pattern: readonly string[], channel: readonly string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const part = pattern[i];
    if (part === '**') return channel.length > i;
    if (i >= channel.length) return false;
    if (part !== '*' && part !== channel[i]) return false;
  }
  return pattern.length === channel.length;
}

/**
 * Whether `pattern` is a valid subscription pattern. `**` only as the last segment: the matcher
 * gives it the rest of the channel, so anything after it would be silently ignored.
 */
export function isValidPattern(pattern: string): boolean {
  return /^(\*|[a-z0-9_-]+)(\.(\*|[a-z0-9_-]+))*(\.\*\*)?$|^\*\*$/i.test(pattern);
}
