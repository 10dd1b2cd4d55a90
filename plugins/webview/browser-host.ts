// The one browser every browsing session lives in: launched on first use (playwright-core,
// loaded only then), closed when idle, or attached to a running browser's DevTools endpoint.
// A crash or a close nobody asked for drops every session; the next call launches again.
import { access, constants } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import type { Logger } from '../../core/index.js';
import type { RaiseError } from './errors.js';

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
  #starting: Promise<Current> | undefined;
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
    this.#starting ??= this.#launch().finally(() => (this.#starting = undefined));
    return (await this.#starting).browser;
  }

  /** Attaches to a running browser's DevTools endpoint instead; the previous browser is let go. */
  async connect(endpoint: string, timeoutMs: number): Promise<BrowserState> {
    const { chromium } = await import('playwright-core');
    await this.release('connecting to another browser');
    let browser: Browser;
    try {
      browser = await chromium.connectOverCDP(endpoint, { timeout: timeoutMs });
    } catch (err) {
      this.#lastError = firstLine(err);
      throw this.#options.error('WEBVIEW_CONNECT_FAILED', `No browser answered at ${endpoint}: ${this.#lastError}. Start it with --remote-debugging-port and check the address.`, { endpoint });
    }
    this.#adopt({ browser, mode: 'connected', endpoint, since: new Date().toISOString() });
    this.#options.log.warn({ endpoint }, 'webview attached to a running browser');
    return this.state();
  }

  /**
   * Lets the browser go: a launched one is closed (its process killed if it hangs), a
   * connected one only detached from. Its contexts are closed by the caller first.
   */
  async release(reason: string): Promise<boolean> {
    this.#cancelIdle();
    const current = this.#current ?? (this.#starting ? await this.#starting.catch(() => undefined) : undefined);
    this.#current = undefined;
    if (!current) return false;
    this.#options.log.info({ mode: current.mode, reason }, 'webview browser released');
    await closeWithin(current.browser, CLOSE_GRACE_MS);
    if (current.pid !== undefined && isAlive(current.pid)) process.kill(current.pid, 'SIGKILL');
    return true;
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
      await closeWithin(browser, CLOSE_GRACE_MS);
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

async function closeWithin(browser: Browser, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([browser.close().catch(() => undefined), late]);
  clearTimeout(timer);
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
