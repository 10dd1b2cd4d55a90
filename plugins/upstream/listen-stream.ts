import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { Logger } from '../../core/index.js';

/** How long to wait before listening again after the server ended the stream on its own. */
const RELISTEN_MS = 1000;

/**
 * What a 2026-07-28 server says through `subscriptions/listen`, where a 2025 one pushes
 * notifications unasked: that its tools, prompts or resources changed, and that a resource the
 * gateway's clients subscribed to was updated. The notifications reach the client's usual
 * handlers (server-notifications.ts). One stream per connection; a stream's filter is fixed,
 * so a new set of subscribed URIs opens a new stream (and closes the old one after it).
 */
export class ListenStream {
  readonly #client: Client;
  readonly #uris: ReadonlySet<string>;
  readonly #log: Logger;
  readonly #server: string;
  #current: McpSubscription | undefined;
  /** Openings run one after another: the latest filter wins. */
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(client: Client, uris: ReadonlySet<string>, log: Logger, server: string) {
    this.#client = client;
    this.#uris = uris;
    this.#log = log;
    this.#server = server;
  }

  /** Listens with what the server offers and the URIs subscribed now; rejects when the server refuses. */
  open(): Promise<void> {
    const opening = this.#queue.then(() => this.#open());
    this.#queue = opening.catch(() => {});
    return opening;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    await this.#current?.close();
  }

  async #open(): Promise<void> {
    if (this.#closed) return;
    const previous = this.#current;
    const filter = this.#filter();
    this.#current = Object.keys(filter).length === 0 ? undefined : await this.#client.listen(filter);
    await previous?.close();
    const current = this.#current;
    void current?.closed.then((how) => {
      if (how === 'local' || this.#closed || this.#current !== current) return;
      this.#log.warn({ server: this.#server, how }, 'upstream listen stream ended; listening again');
      setTimeout(() => this.open().catch((err: unknown) => this.#log.warn({ server: this.#server, err }, 'listening to the upstream again failed')), RELISTEN_MS).unref();
    });
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
