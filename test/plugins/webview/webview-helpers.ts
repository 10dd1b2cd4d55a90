import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { BreakerStatus } from '../../../core/contract/breaker-types.js';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { startPageServer, type PageServer } from '../../fixtures/webview-pages/server.js';
import { memoryClient, startGateway, tempDir, toolCalls, waitFor } from '../../helpers.js';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Why the Chromium tests skip here, or false: CI installs Debian's chromium (.ci/run) and
 * fails rather than skips without it; a developer machine without it is told in one line.
 */
export const noChromium = !existsSync(CHROMIUM) && !process.env.CI ? `no ${CHROMIUM} (apt-get install chromium)` : false;

export interface WebviewSession {
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: any }>;
}

export interface WebviewGateway extends WebviewSession {
  readonly gateway: Gateway;
  readonly pages: PageServer;
  /** Another MCP session on the same gateway. */
  session(clientName?: string): Promise<WebviewSession>;
  /** The plugin's report: the browser, sessions and tabs open. */
  status(): WebviewStatus;
  /** The breaker webview:browser's counts. */
  breaker(): BreakerStatus;
}

export interface WebviewStatus {
  browser: { running: boolean; mode?: string; pid?: number; launches: number; crashes: number; endpoint?: string; lastError?: string };
  sessions: number;
  tabs: number;
}

/** A gateway with the webview plugin (config merged over the test defaults), the test pages, and one MCP session. */
export async function webviewGateway(config: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Promise<WebviewGateway> {
  const pages = await startPageServer();
  after(() => pages.close());
  const gateway = await startGateway({ plugins: { webview: { config } }, dataDir: join(tempDir(), 'data'), ...overrides });
  const session = async (clientName = 'test-client'): Promise<WebviewSession> => {
    const client = await memoryClient(gateway, clientName);
    return { client, ...toolCalls(client) };
  };
  const status = () => gateway.status().plugins.find((p) => p.name === 'webview')!.status!.detail as unknown as WebviewStatus;
  const breaker = () => gateway.breakers.list().find((b) => b.name === 'webview:browser')!;
  return { gateway, pages, session, status, breaker, ...(await session()) };
}

/** The ref the snapshot gives the element with this role and name, e.g. refOf(text, 'textbox', 'Name'). */
export function refOf(snapshot: string, role: string, name: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(`${role} "${name}"`) && l.includes('[ref='));
  const ref = line && /\[ref=([a-z0-9]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" with a ref in:\n${snapshot}`);
  return ref;
}

/**
 * A Chromium somebody else started, with its DevTools port open. After the test file its
 * process group is killed and waited for before its profile folder is removed: a helper
 * process still writing there made the removal fail (ENOTEMPTY), and the hooks after it,
 * which close the file's gateways, never ran.
 */
export async function startOutsideBrowser(): Promise<{ endpoint: string; child: ChildProcess }> {
  const profile = mkdtempSync(join(tmpdir(), 'webview-profile-'));
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'];
  // Its own process group, so that one signal reaches its helper processes too.
  const child = spawn(CHROMIUM, args, { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  after(async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    if (child.exitCode === null && child.signalCode === null) await exited;
    rmSync(profile, { recursive: true, force: true, maxRetries: 5 });
  });
  // Chromium writes the port it chose, then the browser's path, into DevToolsActivePort.
  const portFile = join(profile, 'DevToolsActivePort');
  await waitFor(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'), 20_000);
  return { endpoint: `http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`, child };
}

/** The ids of the processes whose command line (NUL-separated, as /proc has it) passes `match`. */
export function processesWhere(match: (cmdline: string, pid: number) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (match(readFileSync(`/proc/${entry}/cmdline`, 'utf8'), Number(entry))) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
