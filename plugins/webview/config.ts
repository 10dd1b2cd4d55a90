import type { ConfigType } from '@mcp-gateway/core';

const integer = (value: number, minimum: number, maximum: number, description: string) => ({ type: 'integer', minimum, maximum, default: value, description }) as const;
const hosts = (description: string) => ({ type: 'array', items: { type: 'string', minLength: 1, maxLength: 253 }, maxItems: 1000, default: [], description }) as const;

/** The plugin's section of gateway.config.yaml (README.md explains each key); `WebviewConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    executablePath: {
      type: 'string',
      minLength: 1,
      default: '/usr/bin/chromium',
      description: "The Chromium (or Chrome) binary launched on first use. Debian: apt-get install chromium.",
    },
    launchArgs: {
      type: 'array',
      items: { type: 'string', pattern: '^--[a-z0-9-]+(=.*)?$' },
      maxItems: 100,
      default: [],
      description: 'More Chromium switches, after the ones the plugin always passes (headless, no background networking).',
    },
    headless: { type: 'boolean', default: true, description: 'false: a visible window (needs a display).' },
    sandbox: {
      enum: ['auto', true, false],
      default: 'auto',
      description: "Chromium's own sandbox for its renderers. auto: on, unless the gateway runs as root (Chromium refuses a sandbox as root); true: always (a root gateway then cannot launch); false: never.",
    },
    browserIdleMs: integer(120_000, 1000, 86_400_000, 'A launched browser with no browsing session open is closed after this long; the next call launches it again.'),
    limits: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How much one client and all of them together may hold.',
      properties: {
        sessions: integer(16, 1, 1000, 'Browsing sessions (browser contexts) open at once, across every client (WEBVIEW_LIMIT beyond).'),
        sessionsPerClient: integer(4, 1, 1000, 'Browsing sessions one client (an MCP session, or a REST/CLI caller) may have open at once, so that one cannot take them all (WEBVIEW_LIMIT beyond; webview_close closes one).'),
        tabsPerSession: integer(8, 1, 100, 'Tabs one browsing session may have open (WEBVIEW_LIMIT beyond).'),
        sessionIdleMs: integer(900_000, 1000, 86_400_000, "A browsing session nobody used for this long is closed, with its tabs, cookies and storage."),
        navigationTimeoutMs: integer(30_000, 100, 300_000, 'How long a navigation may take at most (a call may ask for less).'),
        actionTimeoutMs: integer(10_000, 100, 300_000, 'How long a click, a fill or a wait for an element may take at most (a call may ask for less).'),
        evalTimeoutMs: integer(10_000, 100, 300_000, 'How long webview_eval waits for its script; a script still running then is stopped by closing its tab.'),
        consoleMessages: integer(500, 1, 100_000, 'Console messages kept per browsing session, the oldest dropped first.'),
        networkRequests: integer(500, 1, 100_000, 'Requests kept per browsing session, the oldest dropped first.'),
        snapshotChars: integer(200_000, 1000, 10_000_000, 'The longest accessibility snapshot returned, in characters; a longer one is cut and marked truncated.'),
        resultChars: integer(100_000, 100, 10_000_000, "The longest webview_eval result returned, as JSON characters; a longer one is cut and marked truncated."),
        screenshotBytes: integer(5 * 1024 * 1024, 1024, 64 * 1024 * 1024, 'The largest screenshot returned, in bytes (WEBVIEW_SCREENSHOT_TOO_LARGE beyond: take JPEG, a lower quality, or one element).'),
      },
    },
    urls: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Which pages the browser may load: checked on every navigation the caller asks for, and on every request the pages make when a host list is set.',
      properties: {
        schemes: {
          type: 'array',
          items: { enum: ['http', 'https', 'file', 'data', 'blob', 'about', 'chrome', 'view-source', 'javascript', 'ftp', 'ws', 'wss'] },
          minItems: 1,
          uniqueItems: true,
          default: ['http', 'https'],
          description: 'URL schemes a navigation may use. about:blank is always allowed. file: reads any file the gateway can read, outside the sandbox too: do not add it lightly.',
        },
        allowHosts: hosts("Only these hosts may be loaded, by navigations and by the pages' own requests: names (*.example.com: the names under it), addresses or ranges (10.0.0.0/8, ::1/128), matched against what a name resolves to as well; empty: any host not denied."),
        denyHosts: hosts('These hosts (same forms) are never loaded, whatever allowHosts says.'),
        denyPrivate: {
          type: 'boolean',
          default: false,
          description: 'true: no request may reach a loopback, private, link-local, unspecified or unique-local address (IPv4 and IPv6), by address or by a name resolving there. false by default: local dev servers are the main use.',
        },
      },
    },
    events: {
      enum: ['metadata', 'full'],
      default: 'metadata',
      description: "What webview.* events on /events carry. metadata: session, owner, tab, type, time, and a navigation's origin; full: also console text, URLs and dialog messages (every subscriber sees every client's).",
    },
    eval: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'webview_eval runs any JavaScript the caller sends inside the page.',
      properties: { enabled: { type: 'boolean', default: true, description: 'false: webview_eval answers WEBVIEW_EVAL_DISABLED.' } },
    },
    connect: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'webview_connect: attaching to a browser that is already running, through its DevTools endpoint.',
      properties: {
        enabled: { type: 'boolean', default: false, description: 'true: webview_connect works. Off by default: attaching moves every client of the gateway into that browser, where whoever controls it can read their pages; for a gateway one person uses.' },
        allowRemote: { type: 'boolean', default: false, description: 'true: endpoints on other machines too; false: loopback only (127.0.0.1, ::1, localhost).' },
      },
    },
    viewport: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'The size of every new tab, in CSS pixels.',
      properties: { width: integer(1280, 100, 7680, 'Width.'), height: integer(720, 100, 4320, 'Height.') },
    },
  },
} as const;

export type WebviewConfig = ConfigType<typeof configSchema>;
export type WebviewLimits = WebviewConfig['limits'];
