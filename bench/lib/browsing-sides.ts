// The three ways the webview section browses, each spelling the same three steps in its own
// tools: the gateway's webview plugin over stdio, playwright-core in the bench process (the
// limit), and Microsoft's Playwright MCP server over stdio (the peer).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
// The switches the plugin adds to every launch: the limit drives the same Chromium as the gateway.
import { CHROMIUM_SWITCHES } from '../../plugins/webview/browser-host.js';
import { GATEWAY_BIN, ROOT, spawnNode, writeGatewayConfig } from './children.js';
import { stdioClient } from './connect.js';
import type { RawMcpClient } from './raw-client.js';

export const CHROMIUM = '/usr/bin/chromium';
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules', '@playwright', 'mcp', 'cli.js');


/** One way of browsing. The first navigate launches the browser, on every side. */
export interface BrowsingSide {
  readonly name: string;
  /** Loads the URL; resolves once the page has loaded. */
  navigate(url: string): Promise<unknown>;
  /** The page's accessibility snapshot as text, elements marked [ref=…]. */
  snapshot(): Promise<string>;
  /** Clicks the element with this ref (`element` says which, for servers that ask); resolves with the page's URL afterwards. */
  click(ref: string, element: string): Promise<string>;
  close(): Promise<void>;
}

/** The answer of a gateway tool with an outputSchema: its JSON, also sent as text. */
const data = (result: { content: Array<{ text?: string }> }) => JSON.parse(result.content[0]?.text ?? 'null');
const text = (result: { content: Array<{ text?: string }> }) => result.content.map((c) => c.text ?? '').join('\n');

/** `mcp-gateway --stdio` with only the webview plugin, its config the defaults. */
export async function gatewaySide(dir: string): Promise<BrowsingSide> {
  const config = writeGatewayConfig(dir, { dataDir: join(dir, 'data'), workspace: dir, logLevel: 'info', plugins: { webview: {} } }, 'webview.config.yaml');
  const client = await stdioClient(spawnNode(GATEWAY_BIN, ['--stdio', '--config', config]));
  return {
    name: 'gateway',
    navigate: (url) => client.callTool('webview_navigate', { url }),
    snapshot: async () => data(await client.callTool('webview_snapshot', {})).snapshot,
    click: async (ref) => data(await client.callTool('webview_click', { ref })).url,
    close: () => client.close(),
  };
}

/** playwright-core in this process: one browser, one context, one page; what any server on top of it adds to is this. */
export async function directSide(): Promise<BrowsingSide> {
  const { chromium } = await import('playwright-core');
  let browser: Browser | undefined;
  let page: Page | undefined;
  const open = async () => {
    browser = await launchChromium(chromium);
    return (page = await (await browser.newContext()).newPage());
  };
  return {
    name: 'direct',
    navigate: async (url) => (page ?? (await open())).goto(url),
    snapshot: () => page!.ariaSnapshot({ mode: 'ai' }),
    async click(ref) {
      await page!.getByRef(ref).click();
      return page!.url();
    },
    close: async () => void (await browser?.close()),
  };
}

/** A launch like the plugin's; the bench's own signal handlers, not Playwright's, stop it. */
export function launchChromium(chromium: typeof import('playwright-core').chromium): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_SWITCHES, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

/**
 * @playwright/mcp over stdio with Debian's Chromium, its profile in memory. `--no-sandbox`
 * because playwright-core's own launch (the gateway's and the limit's) runs Chromium without
 * its sandbox too, and because Chromium refuses the sandbox as root. `extraArgs` set the rest.
 */
export async function playwrightMcpSide(name: string, dir: string, extraArgs: readonly string[]): Promise<BrowsingSide> {
  if (!existsSync(PLAYWRIGHT_MCP)) throw new Error(`${PLAYWRIGHT_MCP} is not installed (npm install: it is a devDependency)`);
  const args = ['--executable-path', CHROMIUM, '--headless', '--isolated', '--no-sandbox', '--output-dir', join(dir, name), ...extraArgs];
  const child = spawnNode(PLAYWRIGHT_MCP, args, { cwd: dir });
  // A server that exits instead of answering initialize would leave the client waiting forever.
  const exited = child.exited.then((code) => {
    throw new Error(`it exited (code ${code}) before answering initialize: ${child.stderrTail.filter(Boolean).slice(-2).join(' ')}`);
  });
  exited.catch(() => undefined); // once open, its exit on close is no failure
  const client = await Promise.race([stdioClient(child), exited]);
  const refKey = await clickRefArgument(client);
  return {
    name,
    navigate: (url) => client.callTool('browser_navigate', { url }),
    snapshot: async () => text(await client.callTool('browser_snapshot', {})),
    async click(ref, element) {
      const answer = text(await client.callTool('browser_click', { element, [refKey]: ref }));
      return /^- Page URL: (\S+)$/m.exec(answer)?.[1] ?? `(no Page URL in the answer: ${answer.slice(0, 200)})`;
    },
    close: () => client.close(),
  };
}

/** Which argument of browser_click takes the ref: `ref` in older releases, `target` since. */
async function clickRefArgument(client: RawMcpClient): Promise<string> {
  const { tools } = (await client.listTools()) as { tools: Array<{ name: string; inputSchema?: { properties?: Record<string, unknown> } }> };
  const properties = tools.find((t) => t.name === 'browser_click')?.inputSchema?.properties ?? {};
  const key = ['ref', 'target'].find((k) => k in properties);
  if (!key) throw new Error(`browser_click takes neither ref nor target: ${Object.keys(properties).join(', ')}`);
  return key;
}
