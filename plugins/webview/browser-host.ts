// The one browser every browsing session lives in: launched on first use (playwright-core,
// loaded only then), closed when idle, or attached to a running browser's DevTools endpoint.
// A crash or a close nobody asked for drops every session; the next call launches again.
import { access, constants } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { settleWithin } from './settle-within.js';
import type { Logger } from '@mcp-gateway/core';
import type { RaiseError } from './declaration.js';

/** Switches for a headless browser on a machine without network beyond the pages it is sent to. */
export const CHROMIUM_SWITCHES = [
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--disable-default-apps',
  '--mute-audio',
  // WebRTC would send UDP (STUN, media) straight to any address, around the policy proxy.
  // Debian's Chromium 156 honours this switch; --force-webrtc-ip-handling-policy is ignored there.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Whether Chromium keeps its renderer sandbox (config `sandbox`): auto means yes unless the
 * gateway runs as root, where Chromium refuses to start with it.
 */
export function sandboxed(setting: 'auto' | boolean, uid = process.getuid?.()): boolean {
  return setting === 'auto' ? uid !== 0 : setting;
}

/** How long a browser may take to close before its process is killed. */
const CLOSE_GRACE_MS = 5000;

export interface BrowserHostOptions {
  readonly executablePath: string;
  readonly launchArgs: readonly string[];
  readonly headless: boolean;
  /** Playwright's chromiumSandbox: false adds --no-sandbox. */
  readonly sandbox: boolean;
  readonly idleMs: number;
  readonly log: Logger;
  readonly error: RaiseError;
  /** Called when the browser went away by itself (crash, killed, remote closed): every context is gone. */
  readonly lost: (reason: string) => void;
}

export type BrowserMode = 'launched' | 'connected';

export interface BrowserState {
  readonly running: boolean;
  readonly mode?: BrowserMode;
  readonly endpoint?: string;
  readonly pid?: number;
  readonly version?: string;
  readonly since?: string;
  readonly launches: number;
  readonly crashes: number;
  readonly lastError?: string;
}

interface Current {
  readonly browser: Browser;
  readonly mode: BrowserMode;
  readonly endpoint?: string;
  readonly pid?: number;
  readonly since: string;
}

export class BrowserHost {
  readonly #options: BrowserHostOptions;
  #current: Current | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #idleTimer: NodeJS.Timeout | undefined;
  #launches = 0;
  #crashes = 0;
  #lastError: string | undefined;
  #closed = false;

  constructor(options: BrowserHostOptions) {
    this.#options = options;
  }

  /** The browser, launched (or relaunched after a crash) when there is none. */
  async browser(): Promise<Browser> {
    if (this.#closed) throw this.#options.error('WEBVIEW_BROWSER_FAILED', 'The gateway is shutting down: no browser will be started.');
    if (this.#current) return this.#current.browser;
    return this.#serially(async () => (this.#current ?? (await this.#launch())).browser);
  }

  /**
   * Attaches to a running browser's DevTools WebSocket URL instead. Only once attached are
   * `closeSessions` run and the previous browser let go: a failed connect changes nothing.
   */
  connect(wsEndpoint: string, timeoutMs: number, closeSessions: () => Promise<number>): Promise<{ state: BrowserState; closedSessions: number }> {
    return this.#serially(async () => {
      const { chromium } = await import('playwright-core');
      let browser: Browser;
      try {
        browser = await chromium.connectOverCDP(wsEndpoint, { timeout: timeoutMs });
      } catch (err) {
        this.#lastError = firstLine(err);
        throw this.#options.error('WEBVIEW_CONNECT_FAILED', `No browser answered at ${wsEndpoint}: ${this.#lastError}. Start it with --remote-debugging-port and check the address.`, { endpoint: wsEndpoint });
      }
      if (this.#closed) {
        await settleWithin(browser.close(), CLOSE_GRACE_MS);
        throw this.#options.error('WEBVIEW_BROWSER_FAILED', 'The gateway is shutting down: no browser will be attached.');
      }
      const closedSessions = await closeSessions();
      await this.#releaseNow('connecting to another browser');
      this.#adopt({ browser, mode: 'connected', endpoint: wsEndpoint, since: new Date().toISOString() });
      this.#options.log.warn({ endpoint: wsEndpoint }, 'webview attached to a running browser');
      return { state: this.state(), closedSessions };
    });
  }

  /**
   * Lets the browser go: a launched one is closed (its process killed if it hangs), a
   * connected one only detached from. Its contexts are closed by the caller first.
   */
  release(reason: string): Promise<boolean> {
    return this.#serially(() => this.#releaseNow(reason));
  }

  /** No browsing session left: a launched browser is closed after the idle time. */
  idle(): void {
    if (this.#current?.mode !== 'launched') return;
    this.#cancelIdle();
    this.#idleTimer = setTimeout(() => void this.release('idle'), this.#options.idleMs);
    this.#idleTimer.unref();
  }

  /** A session opened: the browser stays. */
  busy(): void {
    this.#cancelIdle();
  }

  get connected(): boolean {
    return this.#current?.browser.isConnected() ?? false;
  }

  state(): BrowserState {
    const current = this.#current;
    return {
      running: current !== undefined,
      ...(current ? { mode: current.mode, since: current.since, version: current.browser.version() } : {}),
      ...(current?.endpoint ? { endpoint: current.endpoint } : {}),
      ...(current?.pid !== undefined ? { pid: current.pid } : {}),
      launches: this.#launches,
      crashes: this.#crashes,
      ...(this.#lastError ? { lastError: this.#lastError } : {}),
    };
  }

  /**
   * Launching, attaching and letting go run one at a time, in order: a launch and a connect
   * racing would otherwise each install a browser, and the one overwritten would never close.
   */
  #serially<T>(step: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(step);
    this.#queue = result.catch(() => undefined);
    return result;
  }

  async #releaseNow(reason: string): Promise<boolean> {
    this.#cancelIdle();
    const current = this.#current;
    this.#current = undefined;
    if (!current) return false;
    this.#options.log.info({ mode: current.mode, reason }, 'webview browser released');
    await settleWithin(current.browser.close(), CLOSE_GRACE_MS);
    if (current.pid !== undefined && isAlive(current.pid)) process.kill(current.pid, 'SIGKILL');
    return true;
  }

  /** Shutdown: nothing launched from now on, the browser closed. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.release('gateway shutting down');
  }

  async #launch(): Promise<Current> {
    const { executablePath, launchArgs, headless, sandbox, error, log } = this.#options;
    try {
      await access(executablePath, constants.X_OK);
    } catch {
      throw error('WEBVIEW_BROWSER_MISSING', `No browser at ${executablePath}: install Chromium (Debian/Ubuntu: apt-get install chromium), set plugins.webview.config.executablePath, or attach to a running browser with webview_connect.`, { executablePath });
    }
    const { chromium } = await import('playwright-core');
    let browser: Browser;
    try {
      // The gateway decides when the browser goes (shutdown, idle): not Playwright's own signal handlers.
      browser = await chromium.launch({ executablePath, headless, args: [...CHROMIUM_SWITCHES, ...launchArgs], chromiumSandbox: sandbox, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    } catch (err) {
      this.#lastError = firstLine(err);
      const asRoot = sandbox && process.getuid?.() === 0 ? ' (Chromium refuses its sandbox as root: run the gateway as an unprivileged user, or set plugins.webview.config.sandbox to auto or false)' : '';
      throw error('WEBVIEW_BROWSER_FAILED', `The browser at ${executablePath} did not start${asRoot}: ${this.#lastError}`, { executablePath });
    }
    this.#launches++;
    const current: Current = { browser, mode: 'launched', pid: await browserPid(browser), since: new Date().toISOString() };
    if (this.#closed) {
      await settleWithin(browser.close(), CLOSE_GRACE_MS);
      throw error('WEBVIEW_BROWSER_FAILED', 'The gateway is shutting down: no browser will be started.');
    }
    this.#adopt(current);
    log.info({ pid: current.pid, version: browser.version() }, 'webview browser launched');
    return current;
  }

  #adopt(current: Current): void {
    this.#current = current;
    current.browser.on('disconnected', () => {
      if (this.#current !== current) return; // released on purpose
      this.#current = undefined;
      this.#cancelIdle();
      this.#crashes++;
      this.#lastError = current.mode === 'launched' ? 'the browser process ended' : `the browser at ${current.endpoint} went away`;
      this.#options.log.warn({ mode: current.mode, pid: current.pid }, `webview browser lost: ${this.#lastError}`);
      this.#options.lost(this.#lastError);
    });
  }

  #cancelIdle(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}

/** The browser's process id, asked of the browser itself (Playwright does not tell it). */
async function browserPid(browser: Browser): Promise<number | undefined> {
  try {
    const cdp = await browser.newBrowserCDPSession();
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> };
    await cdp.detach().catch(() => undefined);
    return processInfo.find((info) => info.type === 'browser')?.id;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0]!.slice(0, 500);
}
