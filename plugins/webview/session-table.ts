// Every browsing session of the gateway, keyed by who asked (an MCP session, or a REST/CLI
// caller's key) and the name they gave. Opened on first use, closed with their MCP session,
// when idle, when the browser goes, and at shutdown.
import type { BrowserContext } from 'playwright-core';
import type { Caller, Logger } from '@mcp-gateway/core';
import type { BrowserHost } from './browser-host.js';
import { BrowsingSession } from './browsing-session.js';
import type { WebviewLimits } from './config.js';
import type { RaiseError } from './declaration.js';
import { wireContext, type PageReporter } from './page-events.js';
import { PolicyProxy } from './policy-proxy.js';
import { settleWithin } from './settle-within.js';
import type { UrlPolicy } from './url-policy.js';

export const DEFAULT_SESSION = 'default';
/** How long closing one browser context may take before the caller goes on without it. */
const CLOSE_WITHIN_MS = 5000;

export interface SessionTableOptions {
  readonly host: BrowserHost;
  readonly limits: WebviewLimits;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly policy: UrlPolicy;
  readonly reporter: PageReporter;
  readonly error: RaiseError;
  readonly log: Logger;
  /** Whether an MCP session is still open (one that closed while its context was being made gets none). */
  readonly isOpen: (mcpSession: string) => boolean;
}

/**
 * Whose browsing sessions these are: one MCP session, or one REST/CLI caller (its key, else its
 * name). `owner` is what events say of them: the API key's name, else `mcp` or the transport —
 * never an MCP session id, which would let a watcher of /events act as that session. `scope`
 * holds no "/" (a caller's name may: it is encoded), so `<scope>/` starts that caller's keys only.
 */
export function scopeOf(caller: Caller): { scope: string; owner: string; mcpSession?: string } {
  if (caller.sessionId !== undefined && caller.transport !== 'rest' && caller.transport !== 'cli') {
    return { scope: `mcp:${encodeURIComponent(caller.sessionId)}`, owner: caller.keyName ?? 'mcp', mcpSession: caller.sessionId };
  }
  return { scope: `${caller.transport}:${encodeURIComponent(caller.keyName ?? caller.identity ?? 'anonymous')}`, owner: caller.keyName ?? caller.transport };
}

export class SessionTable {
  readonly #options: SessionTableOptions;
  readonly #sessions = new Map<string, BrowsingSession>();
  readonly #opening = new Map<string, Promise<BrowsingSession>>();
  readonly #sweeper: NodeJS.Timeout;

  constructor(options: SessionTableOptions) {
    this.#options = options;
    const every = Math.min(options.limits.sessionIdleMs / 2, 60_000);
    this.#sweeper = setInterval(() => void this.#sweep(), every);
    this.#sweeper.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** The caller's browsing session `name`, opened (a new browser context) when it has none. */
  async open(caller: Caller, name = DEFAULT_SESSION): Promise<BrowsingSession> {
    const { scope, owner, mcpSession } = scopeOf(caller);
    const key = `${scope}/${name}`;
    const open = this.#sessions.get(key);
    if (open) return open;
    const opening = this.#opening.get(key);
    if (opening) return opening;
    const { limits, error, host } = this.#options;
    const mine = [...this.#sessions.keys(), ...this.#opening.keys()].filter((other) => other.startsWith(`${scope}/`)).length;
    if (mine >= limits.sessionsPerClient) {
      throw error('WEBVIEW_LIMIT', `You have ${limits.sessionsPerClient} browsing sessions open (limits.sessionsPerClient): close one you no longer need with webview_close.`, { limit: 'sessionsPerClient', max: limits.sessionsPerClient });
    }
    if (this.#sessions.size + this.#opening.size >= limits.sessions) {
      throw error('WEBVIEW_LIMIT', `${limits.sessions} browsing sessions are open already, across all clients (limits.sessions): close one of yours with webview_close, or wait for idle sessions to close.`, { limit: 'sessions', max: limits.sessions });
    }
    const made = this.#make(key, name, owner, mcpSession).finally(() => this.#opening.delete(key));
    this.#opening.set(key, made);
    // A first session that failed after the browser launched must still let it idle away.
    made.catch(() => {
      if (this.#sessions.size === 0 && this.#opening.size === 0) host.idle();
    });
    return made;
  }

  /** The caller's browsing session `name` if it is open; never opens one. */
  find(caller: Caller, name = DEFAULT_SESSION): BrowsingSession | undefined {
    return this.#sessions.get(`${scopeOf(caller).scope}/${name}`);
  }

  /** Every browsing session the caller has open. */
  of(caller: Caller): BrowsingSession[] {
    const prefix = `${scopeOf(caller).scope}/`;
    return this.all().filter((session) => session.key.startsWith(prefix));
  }

  all(): BrowsingSession[] {
    return [...this.#sessions.values()];
  }

  /** Closes one browsing session: its context, tabs, cookies and storage. */
  async close(session: BrowsingSession): Promise<void> {
    if (this.#sessions.get(session.key) !== session) return;
    this.#forget(session);
    await settleWithin(session.context.close(), CLOSE_WITHIN_MS);
  }

  /** An MCP session ended: its browsing sessions go with it. */
  async closeMcpSession(mcpSession: string): Promise<void> {
    await Promise.all(this.all().filter((session) => session.mcpSession === mcpSession).map((session) => this.close(session)));
  }

  /** The browser went away: its contexts are gone, nothing to close. */
  lost(): void {
    for (const session of this.all()) this.#sessions.delete(session.key);
  }

  /** Every session closed (before the browser is let go). */
  async closeAll(): Promise<number> {
    const sessions = this.all();
    await Promise.all(sessions.map((session) => this.close(session)));
    return sessions.length;
  }

  /** Shutdown. */
  async shutdown(): Promise<void> {
    clearInterval(this.#sweeper);
    await Promise.allSettled([...this.#opening.values()]);
    await this.closeAll();
  }

  async #make(key: string, name: string, owner: string, mcpSession: string | undefined): Promise<BrowsingSession> {
    const { host, limits, viewport, policy, reporter, isOpen } = this.#options;
    const browser = await host.browser();
    host.busy();
    // With host lists, every request of the context goes through a proxy that checks it (loopback too).
    let session: BrowsingSession | undefined;
    const report = { blocked: (url: string, reason: string) => session?.blocked(url, reason), failed: (url: string, error: string) => session?.failed(url, error) };
    const proxy = policy.filtersHosts ? await PolicyProxy.start(policy, report) : undefined;
    let context: BrowserContext;
    try {
      // No downloads, no permissions granted; service workers could fetch on their own.
      context = await browser.newContext({
        acceptDownloads: false,
        viewport,
        permissions: [],
        serviceWorkers: 'block',
        // The credentials keep the proxy from serving anything else on this machine.
        ...(proxy ? { proxy: { server: proxy.address, bypass: '<-loopback>', username: proxy.username, password: proxy.password } } : {}),
      });
    } catch (err) {
      await proxy?.close();
      throw err;
    }
    context.setDefaultTimeout(limits.actionTimeoutMs);
    context.setDefaultNavigationTimeout(limits.navigationTimeoutMs);
    session = new BrowsingSession(key, name, owner, mcpSession, context, limits);
    wireContext(session, limits.tabsPerSession, reporter);
    context.on('close', () => void proxy?.close());
    if (mcpSession !== undefined && !isOpen(mcpSession)) {
      await context.close().catch(() => undefined);
      throw this.#options.error('WEBVIEW_BROWSER_FAILED', 'The MCP session closed while its browser context was being made.');
    }
    this.#sessions.set(key, session);
    const made = session;
    context.on('close', () => this.#forget(made));
    return session;
  }

  #forget(session: BrowsingSession): void {
    if (this.#sessions.get(session.key) !== session) return;
    this.#sessions.delete(session.key);
    if (this.#sessions.size === 0 && this.#opening.size === 0) this.#options.host.idle();
  }

  async #sweep(): Promise<void> {
    const oldest = Date.now() - this.#options.limits.sessionIdleMs;
    for (const session of this.all()) {
      if (!session.busy && session.lastUsed < oldest) {
        this.#options.log.info({ session: session.key }, 'webview browsing session idle: closed');
        await this.close(session);
      }
    }
  }
}
