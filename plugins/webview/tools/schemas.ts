// Schemas the webview_ tools share: which session and tab, which element, timeouts, and the
// facts about a page every answer carries.

export const session = {
  type: 'string',
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
  default: 'default',
  description: 'Names a separate browsing session (own tabs, cookies, storage).',
} as const;

/** No description: a tool given no tab acts on the selected one, as a caller expects (webview_tabs says so). */
export const tab = { type: 'string', pattern: '^t[0-9]{1,9}$' } as const;

export const ref = { type: 'string', pattern: '^(f[0-9]+)?e[0-9]+$', description: 'From the latest webview_snapshot.' } as const;

export const selector = { type: 'string', minLength: 1, maxLength: 2000, description: 'CSS, first match; instead of ref.' } as const;

/**
 * At least 1: Playwright reads a timeout of 0 as "wait for ever". No description: the name says
 * the unit, and the default (a configured limit, also the ceiling) is nothing a caller acts on.
 */
export const timeoutMs = { type: 'integer', minimum: 1, maximum: 300_000 } as const;

export const snapshotFlag = {
  type: 'boolean',
  default: false,
  description: 'Answer with the page snapshot taken after.',
} as const;

const string = { type: 'string' } as const;

const dialog = {
  type: 'object',
  additionalProperties: false,
  required: ['tab', 'type', 'message', 'time'],
  properties: { tab: string, type: { type: 'string', description: 'alert, confirm, prompt or beforeunload.' }, message: string, time: { type: 'string', description: 'ISO 8601.' } },
} as const;

/** Every answer about a page: the tab, where it is, and the dialogs it raised meanwhile. */
export const pageFacts = {
  tab: { type: 'string', description: 'The tab acted on.' },
  url: { type: 'string', description: 'Its URL now.' },
  title: { type: 'string', description: 'Its title now.' },
  dialogs: { type: 'array', items: dialog, description: 'Dialogs the page raised since the last answer, each dismissed (a beforeunload accepted).' },
  opened: { type: 'array', items: { type: 'string' }, description: 'Tabs the pages opened themselves (window.open, target=_blank) since the last answer, e.g. ["t2"]; they are not selected: name one in tab, or select it with webview_tabs.' },
} as const;

export const snapshotFields = {
  snapshot: { type: 'string', description: 'The accessibility tree as YAML-like text; [ref=eN] marks elements to act on.' },
  truncated: { type: 'boolean', description: 'true: the snapshot was longer than limits.snapshotChars and was cut.' },
} as const;

/** An object answer with `pageFacts` and more. */
export function pageOutput<P extends Record<string, unknown>, R extends readonly string[]>(properties: P, required: R) {
  return { type: 'object', additionalProperties: false, required: ['tab', 'url', 'title', ...required], properties: { ...pageFacts, ...properties } } as const;
}
