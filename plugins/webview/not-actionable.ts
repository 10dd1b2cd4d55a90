// Why Playwright could not act on an element it found: its call log says, line after line, what
// it waited for ("element is not visible"); a timeout's message carries that log, and its last
// word on the element is the state the element was left in.

export interface NotActionable {
  /** hidden, disabled, readonly, covered or moving: for details.state. */
  readonly state: string;
  /** "is not visible (…)", after "the element". */
  readonly says: string;
  readonly advice: string;
}

const STATES: ReadonlyArray<{ readonly log: RegExp; readonly state: string; readonly says: (match: RegExpExecArray) => string; readonly advice: string }> = [
  { log: /element is not visible/g, state: 'hidden', says: () => 'is not visible (hidden, display: none, or no size)', advice: 'Wait for it with webview_wait (state visible), or check it with webview_query.' },
  { log: /element is not enabled/g, state: 'disabled', says: () => 'is disabled', advice: 'The page has to enable it first (fill in what it needs?): check it with webview_snapshot.' },
  { log: /element is not editable/g, state: 'readonly', says: () => 'is not editable (read-only)', advice: 'It takes no typing: type into another field (webview_snapshot lists them).' },
  { log: /(<[^\n]*?>) intercepts pointer events/g, state: 'covered', says: (m) => `is covered by another element, ${m[1]!.slice(0, 200)}`, advice: 'Close or move what covers it first (a dialog, a banner), or act on that element.' },
  { log: /element is not stable/g, state: 'moving', says: () => 'kept moving (an animation)', advice: 'Wait for the page to settle, then try again.' },
];

/** The state Playwright last reported for the element in a timeout's message, if any. */
export function notActionable(message: string): NotActionable | undefined {
  let found: { at: number; state: NotActionable } | undefined;
  for (const { log, state, says, advice } of STATES) {
    for (const match of message.matchAll(log)) {
      if (!found || match.index > found.at) found = { at: match.index, state: { state, says: says(match), advice } };
    }
  }
  return found?.state;
}
