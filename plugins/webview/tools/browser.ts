// The browser itself: webview_connect to a running one, webview_disconnect.
import type { ToolDefinition } from '@mcp-gateway/core';
import { checkedEndpoint, webSocketUrl } from '../devtools-endpoint.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';

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

const closedSessions = { type: 'integer', minimum: 0, description: "Browsing sessions closed on the way (connect: every client's; disconnect: the caller's), with their tabs, cookies and storage." } as const;

const connect = {
  name: 'webview_connect',
  title: 'Attach to a running browser',
  description:
    'Attaches the gateway to a Chromium or Chrome already running with --remote-debugging-port, instead of launching its own. ' +
    "Every client then browses there, and every open browsing session is closed. Off unless the gateway's config enables it.",
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      endpoint: { type: 'string', minLength: 1, maxLength: 2000, default: 'http://127.0.0.1:9222', description: 'DevTools http://host:port, or its ws:// URL.' },
      timeoutMs: { type: 'integer', minimum: 100, maximum: 120_000, default: 10_000 },
    },
    examples: [{ endpoint: 'http://127.0.0.1:0' }],
  },
  outputSchema: { type: 'object', additionalProperties: false, required: ['connected', 'browser', 'closedSessions'], properties: { connected: { type: 'boolean' }, browser: browserState, closedSessions } },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

const disconnect = {
  name: 'webview_disconnect',
  title: 'Let the browser go',
  description:
    'Closes your browsing sessions; once no client has one, closes the browser the gateway launched or detaches from the one webview_connect attached. ' +
    "The next call launches the gateway's own browser again.",
  inputSchema: { type: 'object', additionalProperties: false, properties: {}, examples: [{}] },
  outputSchema: { type: 'object', additionalProperties: false, required: ['disconnected', 'closedSessions', 'message'], properties: { disconnected: { type: 'boolean' }, closedSessions, message: { type: 'string' } } },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerBrowserTools(ctx: PluginCtx, webview: Webview): void {
  const rules = { allowRemote: ctx.config.connect.allowRemote, error: ctx.error };
  ctx.tool(connect, (args, call) => {
    if (!ctx.config.connect.enabled) throw ctx.error('WEBVIEW_CONNECT_REFUSED', 'webview_connect is switched off in this gateway: set plugins.webview.config.connect.enabled to true (for a gateway one person uses: every client then browses in the attached browser).');
    const endpoint = checkedEndpoint(args.endpoint, rules);
    return webview.guarded(call, `connecting to ${endpoint.origin}`, async () => {
      const ws = await webSocketUrl(endpoint, args.timeoutMs, rules);
      const { state, closedSessions } = await webview.host.connect(ws, args.timeoutMs, () => webview.sessions.closeAll());
      call.log.warn({ endpoint: endpoint.origin, by: call.caller.identity }, 'webview_connect: every client now browses in the attached browser');
      return { connected: true, browser: state, closedSessions };
    });
  });

  ctx.tool(disconnect, async (_args, call) => {
    const mine = webview.sessions.of(call.caller);
    await Promise.all(mine.map((session) => webview.sessions.close(session)));
    const others = webview.sessions.size;
    if (others > 0) {
      const message = `Closed your ${mine.length} browsing session(s); the browser stays, since other clients have ${others} open.`;
      return { disconnected: false, closedSessions: mine.length, message };
    }
    const mode = webview.host.state().mode;
    const released = await webview.host.release('webview_disconnect');
    call.log.info({ by: call.caller.identity, mode }, 'webview_disconnect');
    const message = !released ? 'No browser was running.' : mode === 'connected' ? 'Detached from the browser; it keeps running.' : 'The browser is closed; the next call launches it again.';
    return { disconnected: released, closedSessions: mine.length, message };
  });
}
