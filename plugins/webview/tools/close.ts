// Closing one of the caller's browsing sessions: webview_close. Named sessions ("job-1") would
// otherwise stay until idle, holding a place under limits.sessions and limits.sessionsPerClient.
import type { ToolDefinition } from '@mcp-gateway/core';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { session } from './schemas.js';

const close = {
  name: 'webview_close',
  title: 'Close a browsing session',
  description:
    'Closes one of your browsing sessions with its tabs, cookies, storage and records; the next call naming it starts clean. ' +
    'Use it when a job is done, or when WEBVIEW_LIMIT says you hold too many sessions.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { session },
    examples: [{ session: 'job-1' }, {}],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['closed', 'tabs'],
    properties: {
      closed: { type: 'boolean', description: 'true: it was open and is closed now; false: it was not open.' },
      tabs: { type: 'integer', minimum: 0, description: 'How many tabs it had open.' },
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerCloseTools(ctx: PluginCtx, webview: Webview): void {
  // Not through the breaker: closing a context is not browser trouble, and must work while it is open.
  ctx.tool(close, async (args, call) => {
    const open = webview.sessions.find(call.caller, args.session);
    if (!open) return { closed: false, tabs: 0 };
    const tabs = open.size;
    await webview.sessions.close(open);
    call.log.info({ session: open.name }, 'webview browsing session closed by its client');
    return { closed: true, tabs };
  });
}
