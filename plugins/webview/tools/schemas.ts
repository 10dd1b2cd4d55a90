// Schemas the webview_ tools share: which session and tab, which element, timeouts, and the
// facts about a page every answer carries.

export const session = {
  type: 'string',
  pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$',
  default: 'default',
  description: "Which of the caller's browsing sessions (own cookies, storage, console, tabs): an MCP session has its own; a REST or CLI caller names one to keep calls apart (per API key).",
} as const;

export const tab = { type: 'string', pattern: '^t[0-9]{1,9}$', description: 'A tab id (t1, t2, …) from webview_tabs; default: the selected tab, opened when there is none.' } as const;

export const ref = { type: 'string', pattern: '^(f[0-9]+)?e[0-9]+$', description: 'An element reference from the latest webview_snapshot of the tab: e6, or f2e6 for an element inside a frame.' } as const;

export const selector = { type: 'string', minLength: 1, maxLength: 2000, description: 'A CSS selector (the first match is used), instead of ref.' } as const;

/** At least 1: Playwright reads a timeout of 0 as "wait for ever". */
export const timeoutMs = (description: string) => ({ type: 'integer', minimum: 1, maximum: 300_000, description }) as const;

export const snapshotFlag = {
  type: 'boolean',
  default: false,
  description: "true: the answer carries the page's accessibility snapshot taken after the action, so no second call is needed.",
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
