// One client's browser context: its tabs, and what their pages logged, requested and asked.
// Cookies, storage, console and network of one browsing session are never seen by another.
import type { BrowserContext, Page } from 'playwright-core';
import type { ConsoleEntry, DialogEntry, NetworkEntry } from './model.js';
import { Ring } from './ring.js';

export interface Tab {
  readonly id: string;
  readonly page: Page;
}

/** A URL the policy proxy refused (`blocked`: why) or could not reach (`error`: net::…). */
export interface ProxyTrouble {
  readonly blocked?: string;
  readonly error?: string;
}

export class BrowsingSession {
  readonly #tabs = new Map<string, Tab>();
  #selected: string | undefined;
  #nextTab = 1;
  #lastUsed = Date.now();
  readonly console: Ring<ConsoleEntry>;
  readonly network: Ring<NetworkEntry>;
  /** Dialogs dismissed since the caller was last told, reported with the next tool result. */
  readonly #dialogs: DialogEntry[] = [];
  /** Tabs the pages opened themselves since the caller was last told. */
  #opened: string[] = [];
  /** The first tab while it opens: calls that find no tab at once share it instead of opening one each. */
  #firstTab: Promise<Tab> | undefined;
  /** What the policy proxy said about recent URLs, for the navigation that asked for them. */
  readonly #proxied = new Map<string, ProxyTrouble>();

  constructor(
    /** `<scope>/<name>`: the table's key. */
    readonly key: string,
    /** The name the caller gave (`session` argument), `default` when none. */
    readonly name: string,
    /** Who it belongs to, as events name it: `mcp`, or the API key's name (never a session id). */
    readonly owner: string,
    /** The MCP session it belongs to, if any: notifications go there. */
    readonly mcpSession: string | undefined,
    readonly context: BrowserContext,
    limits: { readonly consoleMessages: number; readonly networkRequests: number },
  ) {
    this.console = new Ring(limits.consoleMessages);
    this.network = new Ring(limits.networkRequests);
  }

  get lastUsed(): number {
    return this.#lastUsed;
  }

  touch(): void {
    this.#lastUsed = Date.now();
  }

  #calls = 0;

  /** A call is running in this session: the idle sweep leaves it alone until `leave`. */
  enter(): void {
    this.#calls++;
    this.touch();
  }

  leave(): void {
    this.#calls--;
    this.touch();
  }

  get busy(): boolean {
    return this.#calls > 0;
  }

  get size(): number {
    return this.#tabs.size;
  }

  tabs(): readonly Tab[] {
    return [...this.#tabs.values()];
  }

  get selectedId(): string | undefined {
    return this.#selected;
  }

  /**
   * A page joins as a tab. One a tool opened is selected; one the page opened itself
   * (window.open, target=_blank) is not — the caller did not ask for it, and its next calls
   * must not land there unannounced — but is reported in `opened` of the next answer.
   */
  add(page: Page, by: 'tool' | 'page' = 'tool'): Tab {
    const known = this.tabOf(page);
    // The context's page event can come before newPage() returns: that page is the tool's after all.
    if (known && by === 'tool') {
      this.#opened = this.#opened.filter((id) => id !== known.id);
      this.#selected = known.id;
    }
    if (known) return known;
    const tab = { id: `t${this.#nextTab++}`, page };
    this.#tabs.set(tab.id, tab);
    if (by === 'tool') this.#selected = tab.id;
    else this.#opened.push(tab.id);
    return tab;
  }

  /** The selected tab, else the one `open` makes — once, however many calls ask at the same time. */
  async selectedOr(open: () => Promise<Tab>): Promise<Tab> {
    const selected = this.selected();
    if (selected) return selected;
    this.#firstTab ??= open().finally(() => (this.#firstTab = undefined));
    return this.#firstTab;
  }

  /** A tab closed (by a tool, the page, or a crash): the most recent other one is selected. */
  remove(id: string): void {
    this.#tabs.delete(id);
    if (this.#selected === id) this.#selected = [...this.#tabs.keys()].at(-1);
  }

  get(id: string): Tab | undefined {
    return this.#tabs.get(id);
  }

  tabOf(page: Page): Tab | undefined {
    for (const tab of this.#tabs.values()) if (tab.page === page) return tab;
    return undefined;
  }

  select(id: string): void {
    this.#selected = id;
  }

  selected(): Tab | undefined {
    return this.#selected === undefined ? undefined : this.#tabs.get(this.#selected);
  }

  /**
   * A request the URL policy stopped (the proxy saw it, not the page): the page's own entry
   * for it carries the failure, so it shows once; a request no page announced is added.
   */
  blocked(url: string, reason: string): void {
    const failure = `blocked by the URL policy: ${reason}`;
    this.#remember(url, { blocked: reason });
    const clipped = url.slice(0, 2000);
    const entry = this.network.items().findLast((seen) => seen.url === clipped && seen.failure === null);
    if (entry) entry.failure = failure;
    else this.network.push({ tab: null, method: '', url: clipped, resourceType: 'blocked', status: null, failure, time: new Date().toISOString() });
  }

  /** A request the proxy could not take to its server: why, as Chromium's net:: error. */
  failed(url: string, error: string): void {
    this.#remember(url, { error });
  }

  /**
   * What the proxy last said about `url` (or, for an HTTPS tunnel, its origin), forgotten once
   * read: a server down a minute ago may be up for the next load.
   */
  takeProxyTrouble(url: string): ProxyTrouble | undefined {
    let origin: string | undefined;
    try {
      origin = `${new URL(url).origin}/`;
    } catch {
      origin = undefined;
    }
    const key = this.#proxied.has(url) ? url : origin;
    const trouble = key === undefined ? undefined : this.#proxied.get(key);
    if (key !== undefined) this.#proxied.delete(key);
    return trouble;
  }

  #remember(url: string, trouble: ProxyTrouble): void {
    this.#proxied.delete(url);
    this.#proxied.set(url, trouble);
    if (this.#proxied.size > 100) this.#proxied.delete(this.#proxied.keys().next().value!);
  }

  dialogSeen(dialog: DialogEntry): void {
    this.#dialogs.push(dialog);
    if (this.#dialogs.length > 20) this.#dialogs.shift();
  }

  /** The dialogs not reported yet; reading them reports them. */
  takeDialogs(): DialogEntry[] {
    return this.#dialogs.splice(0);
  }

  /** The tabs the pages opened that the caller was not told of yet (still open); reading them reports them. */
  takeOpened(): string[] {
    const opened = this.#opened.filter((id) => this.#tabs.has(id));
    this.#opened = [];
    return opened;
  }
}
