// The few DOM shapes that the functions sent into a page read. The gateway compiles without
// the DOM lib (its own code runs in Node), so these say just enough for the compiler to check
// those functions. The functions themselves travel to the page as source text: they may use
// only their arguments, and no named inner function or `const f = () =>` (tsx's keepNames
// wraps those in a `__name` helper that does not exist in the page).

export interface DomRect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface DomElement {
  readonly localName: string;
  readonly textContent: string | null;
  /** HTML elements only: the rendered text. */
  readonly innerText?: string;
  readonly attributes: ArrayLike<{ readonly name: string; readonly value: string }>;
  readonly isContentEditable?: boolean;
  getClientRects(): { readonly length: number };
  getBoundingClientRect(): DomRect;
  checkVisibility?(options: { visibilityProperty: boolean }): boolean;
  focus?(): void;
}

/** An <input>, a <textarea>. */
export interface DomField extends DomElement {
  readonly type?: string;
  readonly value: string;
  readonly disabled: boolean;
  readonly readOnly: boolean;
  setSelectionRange(start: number, end: number): void;
}

export interface DomOption {
  readonly value: string;
  readonly label: string;
  readonly selected: boolean;
  readonly disabled: boolean;
}

export interface DomSelect extends DomElement {
  readonly multiple: boolean;
  readonly disabled: boolean;
  readonly options: ArrayLike<DomOption>;
}
