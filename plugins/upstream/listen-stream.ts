import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { Logger } from '@mcp-gateway/core';

/** The first wait before listening again after the stream ended or a new one was refused; doubled each time, up to MAX. */
const RELISTEN_MS = 1000;
const RELISTEN_MAX_MS = 30_000;
/** A stream that lasted this long starts the waits over: one that ends at once keeps doubling them. */
const STABLE_MS = 10_000;

export interface ListenOptions {
  readonly log: Logger;
  readonly server: string;
  /** How long the server has to acknowledge a new stream. */
  readonly timeoutMs: number;
}

/**
 * What a 2026-07-28 server says through `subscriptions/listen`, where a 2025 one pushes
 * notifications unasked: that its tools, prompts or resources changed, and that a resource the
 * gateway's clients subscribed to was updated. The notifications reach the client's usual
 * handlers (server-notifications.ts). One stream per connection; a stream's filter is fixed,
 * so a new set of subscribed URIs opens a new stream (and closes the old one after it). A
 * stream that ends, or a new one that fails, is tried again after a wait that doubles.
 */
export class ListenStream {
  readonly #client: Client;
  readonly #uris: ReadonlySet<string>;
  readonly #options: ListenOptions;
  /** Ends an acknowledgement still awaited when the connection closes. */
  readonly #closing = new AbortController();
  #current: McpSubscription | undefined;
  /** Openings run one after another: the latest filter wins. */
  #queue: Promise<unknown> = Promise.resolve();
  #retryMs = RELISTEN_MS;
  #retry: NodeJS.Timeout | undefined;

  constructor(client: Client, uris: ReadonlySet<string>, options: ListenOptions) {
    this.#client = client;
    this.#uris = uris;
    this.#options = options;
  }

  /**
   * Listens with what the server offers and the URIs subscribed now. Resolves with the URIs
   * the server agreed to watch; rejects when it refuses the stream (and then tries again later).
   */
  open(): Promise<ReadonlySet<string>> {
    const opening = this.#queue.then(() => this.#open());
    this.#queue = opening.catch((err: unknown) => this.#again(err));
    return opening;
  }

  /** Ends the stream, and any opening still waiting for the server, at once. */
  async close(): Promise<void> {
    this.#closing.abort();
    clearTimeout(this.#retry);
    await this.#current?.close();
  }

  async #open(): Promise<ReadonlySet<string>> {
    if (this.#closing.signal.aborted) return new Set();
    const previous = this.#current;
    const filter = this.#filter();
    const subscription = Object.keys(filter).length === 0 ? undefined : await this.#client.listen(filter, { timeout: this.#options.timeoutMs, signal: this.#closing.signal });
    this.#current = subscription;
    await previous?.close();
    const openedAt = Date.now();
    void subscription?.closed.then((how) => {
      if (how === 'local' || this.#current !== subscription) return;
      if (Date.now() - openedAt >= STABLE_MS) this.#retryMs = RELISTEN_MS;
      this.#again(new Error(`the stream ended (${how})`));
    });
    return new Set(subscription?.honoredFilter.resourceSubscriptions ?? []);
  }

  /** Tries again after the current wait (doubled for the next time), unless the connection is closing. */
  #again(reason: unknown): void {
    if (this.#closing.signal.aborted) return;
    this.#options.log.warn({ server: this.#options.server, reason: String((reason as Error)?.message ?? reason), retryMs: this.#retryMs }, 'upstream subscriptions/listen: listening again later');
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.open().catch(() => {}), this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(RELISTEN_MAX_MS, this.#retryMs * 2);
  }

  #filter(): SubscriptionFilter {
    const offered = this.#client.getServerCapabilities() ?? {};
    const uris = offered.resources?.subscribe === true ? [...this.#uris] : [];
    return {
      ...(offered.tools?.listChanged === true ? { toolsListChanged: true } : {}),
      ...(offered.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
      ...(offered.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
      ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
    };
  }
}
