// What the pages of a browsing session logged and requested: webview_console, webview_network.
// Both read what the session recorded (page-events.ts) and never touch the browser: asking
// before any page was opened answers empty lists rather than launching Chromium.
import type { CallContext, ToolDefinition } from '@mcp-gateway/core';
import type { BrowsingSession } from '../browsing-session.js';
import type { Ring } from '../ring.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { session } from './schemas.js';

/** Playwright's console message types, and the two the plugin adds. */
const CONSOLE_TYPES = [
  'log', 'debug', 'info', 'error', 'warning', 'dir', 'dirxml', 'table', 'trace', 'clear', 'startGroup', 'startGroupCollapsed',
  'endGroup', 'assert', 'profile', 'profileEnd', 'count', 'time', 'timeEnd', 'pageerror', 'dialog',
] as const;

const tabFilter = { type: 'string', pattern: '^t[0-9]{1,9}$', description: 'Only this tab; default: every tab, closed ones too.' } as const;
const limitArg = { type: 'integer', minimum: 1, maximum: 100_000, default: 100, description: 'The last this many that match.' } as const;
const clearArg = { type: 'boolean', default: false, description: 'Then empty the whole record, not only what matched.' } as const;
const time = { type: 'string', description: 'When, ISO 8601.' } as const;
const count = { type: 'integer', minimum: 0, description: 'How many the answer holds.' } as const;
const dropped = (what: string, limitName: string) => ({ type: 'integer', minimum: 0, description: `How many older ${what} the session no longer holds (${limitName}), since its record was last cleared.` }) as const;

const consoleTool = {
  name: 'webview_console',
  title: 'Read the console',
  description:
    'What the pages of your browsing session logged, oldest first: console messages, uncaught exceptions (type pageerror) and the dialogs the gateway dismissed (type dialog). ' +
    'Use it to debug a page; clear makes the next read show only what came later.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      types: { type: 'array', items: { enum: CONSOLE_TYPES }, minItems: 1, maxItems: CONSOLE_TYPES.length, uniqueItems: true, description: 'Default: all.' },
      limit: limitArg,
      clear: clearArg,
      session,
      tab: tabFilter,
    },
    examples: [{}, { types: ['error', 'pageerror'], limit: 20 }, { clear: true }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['messages', 'count', 'dropped'],
    properties: {
      messages: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['tab', 'type', 'text', 'time'],
          properties: {
            tab: { type: 'string' },
            type: { type: 'string', description: 'log, info, warning, error, debug…; pageerror: an uncaught exception; dialog: a dialog the gateway dismissed.' },
            text: { type: 'string', description: 'The message (at most 4000 characters).' },
            url: { type: 'string', description: 'The script that logged it, when known.' },
            line: { type: 'integer', description: 'Its line there, from 0.' },
            column: { type: 'integer', description: 'Its column there, from 0.' },
            time,
          },
        },
      },
      count,
      dropped: dropped('messages', 'limits.consoleMessages'),
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

const network = {
  name: 'webview_network',
  title: 'List recent requests',
  description:
    'The requests the pages of your browsing session made, newest last, with method, URL, resource type, HTTP status and failure. ' +
    'Use it to find failing API calls and missing files; clear makes the next read show only what came later.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      urlContains: { type: 'string', minLength: 1, maxLength: 2000, description: 'Case-sensitive, e.g. /api/.' },
      failedOnly: { type: 'boolean', default: false, description: 'Status 400 or more, or no answer.' },
      limit: limitArg,
      clear: clearArg,
      session,
      tab: tabFilter,
    },
    examples: [{}, { failedOnly: true }, { urlContains: 'example.com', limit: 20 }],
  },
  outputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['requests', 'count', 'dropped'],
    properties: {
      requests: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['tab', 'method', 'url', 'resourceType', 'status', 'failure', 'time'],
          properties: {
            tab: { type: ['string', 'null'], description: 'The tab whose page made it; null when no tab did (a worker).' },
            method: { type: 'string' },
            url: { type: 'string', description: 'At most 2000 characters.' },
            resourceType: { type: 'string', description: 'document, script, stylesheet, image, fetch, xhr, …' },
            status: { type: ['integer', 'null'], description: 'The HTTP status; null while pending, or when no answer came.' },
            failure: { type: ['string', 'null'], description: "Why no answer came (Chromium's net::ERR_… text); null otherwise." },
            time: { ...time, description: 'When it was sent, ISO 8601.' },
          },
        },
      },
      count,
      dropped: dropped('requests', 'limits.networkRequests'),
    },
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
} as const satisfies ToolDefinition;

export function registerConsoleNetworkTools(ctx: PluginCtx, webview: Webview): void {
  /** The caller's session if it is open: these tools report, they never open one. */
  const sessionOf = (call: CallContext, name: string): BrowsingSession | undefined => {
    const found = webview.sessions.find(call.caller, name);
    found?.touch();
    return found;
  };

  ctx.tool(consoleTool, (args, call) => {
    const types = args.types && new Set<string>(args.types);
    const { items, dropped } = readRing(sessionOf(call, args.session)?.console, args, (entry) => !types || types.has(entry.type));
    return { messages: items, count: items.length, dropped };
  });

  ctx.tool(network, (args, call) => {
    const { items, dropped } = readRing(sessionOf(call, args.session)?.network, args, (entry) => {
      if (args.urlContains !== undefined && !entry.url.includes(args.urlContains)) return false;
      return !args.failedOnly || entry.failure !== null || (entry.status ?? 0) >= 400;
    });
    // Copies: a pending request's entry is still filled in (status, failure) as answers come.
    return { requests: items.map((entry) => ({ ...entry })), count: items.length, dropped };
  });
}

interface ReadArgs {
  readonly tab?: string;
  readonly limit: number;
  readonly clear: boolean;
}

/** The last `limit` entries of `ring` on the tab asked for that `keep` keeps; the ring emptied after when asked. */
function readRing<T extends { readonly tab: string | null }>(ring: Ring<T> | undefined, args: ReadArgs, keep: (entry: T) => boolean): { items: T[]; dropped: number } {
  if (!ring) return { items: [], dropped: 0 };
  const items = ring.items().filter((entry) => (args.tab === undefined || entry.tab === args.tab) && keep(entry)).slice(-args.limit);
  const { dropped } = ring;
  if (args.clear) ring.clear();
  return { items, dropped };
}
