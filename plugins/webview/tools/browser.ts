// The browser itself: webview_connect to a running one, webview_disconnect.
import type { ToolDefinition } from '../../../core/index.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '[::1]']);

const browserState = {
  type: 'object',
  additionalProperties: false,
  required: ['running', 'launches', 'crashes'],
  properties: {
    running: { type: 'boolean' },
    mode: { enum: ['launched', 'connected'], description: 'launched: started by the gateway; connected: attached with webview_connect.' },
    endpoint: { type: 'string' },
    pid: { type: 'integer' },
    version: { type: 'string' },
    since: { type: 'string', description: 'ISO 8601.' },
    launches: { type: 'integer', minimum: 0 },
    crashes: { type: 'integer', minimum: 0, description: 'Times the browser went away by itself.' },
    lastError: { type: 'string' },
  },
} as const;

const closedSessions = { type: 'integer', minimum: 0, description: 'Browsing sessions closed on the way (every client loses its tabs, cookies and storage).' } as const;

const connect = {
  name: 'webview_connect',
  title: 'Attach to a running browser',
  description:
    'Attaches the gateway to a Chromium or Chrome already running with --remote-debugging-port, instead of launching its own: every client works in it from now on (in browsing sessions of their own). Every open browsing session is closed first. Loopback endpoints only unless connect.allowRemote. Errors: WEBVIEW_CONNECT_FAILED, WEBVIEW_CONNECT_REFUSED.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      endpoint: { type: 'string', minLength: 1, maxLength: 2000, default: 'http://127.0.0.1:9222', description: "The browser's DevTools endpoint: http://host:port, or its ws:// URL." },
      timeoutMs: { type: 'integer', minimum: 100, maximum: 120_000, default: 10_000, description: 'How long to wait for the browser to answer.' },
    },
    examples: [{ endpoint: 'http://127.0.0.1:9222' }],
  },
  outputSchema: { type: 'object', additionalProperties: false, required: ['connected', 'browser', 'closedSessions'], properties: { connected: { type: 'boolean' }, browser: browserState, closedSessions } },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const disconnect = {
  name: 'webview_disconnect',
  title: 'Let the browser go',
  description:
    "Closes every browsing session and lets the browser go: one the gateway launched is closed, one attached with webview_connect is only detached from (it keeps running). The next call launches the gateway's own browser again. Nothing to let go is not an error.",
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: { type: 'object', additionalProperties: false, required: ['disconnected', 'closedSessions', 'message'], properties: { disconnected: { type: 'boolean' }, closedSessions, message: { type: 'string' } } },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerBrowserTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(connect, (args, call) => {
    if (!ctx.config.connect.enabled) throw ctx.error('WEBVIEW_CONNECT_REFUSED', 'webview_connect is switched off in this gateway (plugins.webview.config.connect.enabled).');
    const endpoint = checkedEndpoint(args.endpoint, ctx);
    return webview.guarded(call, `connecting to ${endpoint}`, async () => {
      const closed = await webview.sessions.closeAll();
      const browser = await webview.host.connect(endpoint, args.timeoutMs);
      call.log.warn({ endpoint, by: call.caller.identity }, 'webview_connect: every client now browses in the attached browser');
      return { connected: true, browser, closedSessions: closed };
    });
  });

  ctx.tool(disconnect, async (_args, call) => {
    const closed = await webview.sessions.closeAll();
    const mode = webview.host.state().mode;
    const released = await webview.host.release('webview_disconnect');
    call.log.info({ by: call.caller.identity, mode }, 'webview_disconnect');
    const message = !released ? 'No browser was running.' : mode === 'connected' ? 'Detached from the browser; it keeps running.' : 'The browser is closed; the next call launches it again.';
    return { disconnected: released, closedSessions: closed, message };
  });
}

/** An http(s) or ws(s) URL, on this machine unless remote endpoints are allowed. */
function checkedEndpoint(raw: string, ctx: PluginCtx): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw ctx.error('INVALID_ARGUMENTS', `endpoint "${raw.slice(0, 200)}" is not a URL; e.g. http://127.0.0.1:9222.`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw ctx.error('INVALID_ARGUMENTS', `endpoint: use http(s):// or ws(s)://, not ${url.protocol}//.`);
  if (!ctx.config.connect.allowRemote && !LOOPBACK.has(url.hostname)) {
    throw ctx.error('WEBVIEW_CONNECT_REFUSED', `${url.hostname} is not this machine: only loopback endpoints are allowed (plugins.webview.config.connect.allowRemote).`, { host: url.hostname });
  }
  return url.href;
}
