import type { Client } from '@modelcontextprotocol/client';
import { isGatewayError } from '@mcp-gateway/core';
import { Mirror, type MirrorEntry } from './mirror.js';
import type { NameClaims } from './name-claims.js';
import { listPrompts, promptEntries } from './prompt-entries.js';
import { listResources, resourceEntries } from './resource-entries.js';
import type { ServerLink } from './server-link.js';
import { listTools, toolEntries } from './tool-entries.js';
import type { ServerListener } from './server-notifications.js';

type Kind = 'tools' | 'resources' | 'prompts';

/**
 * The gateway's copy of one server's tools, resources and prompts: listed in full on every
 * (re)connection and again for each kind the server says changed, then mirrored into the
 * catalogs. Listings of one kind run one at a time, the latest winning. With `withdraw`, a
 * server that goes down takes its entries with it until it is back.
 */
export class ServerMirror implements ServerListener {
  readonly #link: ServerLink;
  readonly #withdrawWhenDown: boolean;
  readonly #mirrors: Record<Kind, Mirror>;
  readonly #pending: Record<Kind, Promise<void>> = { tools: Promise.resolve(), resources: Promise.resolve(), prompts: Promise.resolve() };
  readonly #listErrors: Partial<Record<Kind, string>> = {};

  constructor(link: ServerLink, claims: NameClaims, withdrawWhenDown: boolean) {
    this.#link = link;
    this.#withdrawWhenDown = withdrawWhenDown;
    const source = `upstream "${link.config.name}"`;
    this.#mirrors = { tools: new Mirror('tool', source, claims), resources: new Mirror('resource', source, claims), prompts: new Mirror('prompt', source, claims) };
  }

  /** Resolves once the listings asked for so far are mirrored. */
  async settled(): Promise<void> {
    await Promise.all(Object.values(this.#pending));
  }

  connected(client: Client): void {
    for (const kind of ['tools', 'resources', 'prompts'] as const) this.#refresh(kind, client);
    this.#resubscribe(client);
  }

  /**
   * A new process or session knows none of the subscriptions our clients still hold. (A
   * 2026-07-28 connection's listen stream names them from the start.)
   */
  #resubscribe(client: Client): void {
    const { server, ctx, config } = this.#link;
    const { subscribed } = server;
    if (server.modern || subscribed.size === 0 || client.getServerCapabilities()?.resources?.subscribe !== true) return;
    for (const uri of subscribed) {
      client.subscribeResource({ uri }).catch((err: unknown) => ctx.log.warn({ server: config.name, uri, err }, 'resubscribing after a reconnect failed'));
    }
  }

  disconnected(): void {
    if (!this.#withdrawWhenDown) return;
    for (const mirror of Object.values(this.#mirrors)) mirror.clear();
  }

  listChanged(kind: Kind): void {
    const client = this.#connectedClient();
    if (client) this.#refresh(kind, client);
  }

  resourceUpdated(uri: string): void {
    try {
      this.#link.ctx.resourceUpdated(uri);
    } catch (err) {
      // A URI none of our entries serves (left out, or a server announcing what it never listed).
      if (!isGatewayError(err)) throw err;
    }
  }

  status() {
    const { tools, resources, prompts } = this.#mirrors;
    const conflicts = [...tools.conflicts, ...resources.conflicts, ...prompts.conflicts];
    return {
      tools: tools.names(),
      resources: resources.size,
      prompts: prompts.size,
      ...(conflicts.length ? { conflicts } : {}),
      ...(Object.keys(this.#listErrors).length ? { listErrors: Object.values(this.#listErrors) } : {}),
    };
  }

  #connectedClient(): Client | undefined {
    try {
      return this.#link.server.client();
    } catch {
      return undefined;
    }
  }

  #refresh(kind: Kind, client: Client): void {
    this.#pending[kind] = this.#pending[kind].then(async () => {
      try {
        const entries = await this.#list(kind, client);
        // The connection may have been replaced meanwhile; the new one lists for itself.
        if (this.#connectedClient() !== client) return;
        this.#mirrors[kind].sync(entries);
        delete this.#listErrors[kind];
      } catch (err) {
        this.#listErrors[kind] = `listing ${kind} failed: ${(err as Error).message}`;
        this.#link.ctx.log.warn({ server: this.#link.config.name, err }, `listing upstream ${kind} failed`);
      }
    });
  }

  async #list(kind: Kind, client: Client): Promise<MirrorEntry[]> {
    const link = this.#link;
    switch (kind) {
      case 'tools':
        return toolEntries(link, await listTools(client));
      case 'resources':
        return resourceEntries(link, await listResources(client, link.ctx.config.maxResources));
      case 'prompts':
        return promptEntries(link, await listPrompts(client));
    }
  }
}
