// What a browsing session remembers of its pages, as the tools and events report it.

export interface ConsoleEntry {
  readonly tab: string;
  /** log, info, warning, error, debug...; `pageerror` for an uncaught exception, `dialog` for a dismissed dialog. */
  readonly type: string;
  readonly text: string;
  readonly url?: string;
  readonly line?: number;
  readonly column?: number;
  readonly time: string;
}

export interface NetworkEntry {
  readonly tab: string | null;
  readonly method: string;
  readonly url: string;
  readonly resourceType: string;
  status: number | null;
  failure: string | null;
  readonly time: string;
}

export interface DialogEntry {
  readonly tab: string;
  /** alert, confirm, prompt or beforeunload. */
  readonly type: string;
  readonly message: string;
  readonly time: string;
}

/** Where an element is, in CSS pixels relative to the viewport. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}
