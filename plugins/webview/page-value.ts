// A value webview_eval brought back from the page, made into JSON the answer can carry, and
// cut at the configured length. Playwright returns what it can serialise: DOM nodes as the
// string 'ref: <Node>', functions and symbols as undefined, a Map or a Set as {}, but also
// BigInts and circular objects, which JSON cannot express: those are turned into strings
// here rather than failing the call.

export interface PageValue {
  /** The value as JSON; when cut, the first `maxChars` characters of its JSON text. */
  readonly result: unknown;
  readonly truncated: boolean;
}

export function pageValue(value: unknown, maxChars: number): PageValue {
  const json = jsonSafe(value, new Set()) ?? null;
  const text = JSON.stringify(json);
  return text.length > maxChars ? { result: text.slice(0, maxChars), truncated: true } : { result: json, truncated: false };
}

/**
 * The value as JSON.stringify would see it, as a value (the in-process transport passes it on
 * without a JSON round trip): undefined where JSON has nothing (functions, symbols, undefined).
 */
function jsonSafe(value: unknown, ancestors: Set<object>): unknown {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'string':
    case 'boolean':
      return value;
    case 'object':
      return value === null ? null : objectSafe(value, ancestors);
    default:
      return undefined;
  }
}

function objectSafe(value: object, ancestors: Set<object>): unknown {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (value instanceof RegExp) return String(value);
  // Dates and URLs say what they are through toJSON, as JSON.stringify would have them.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return jsonSafe((value as { toJSON(): unknown }).toJSON(), ancestors);
  if (ancestors.has(value)) return '[Circular]';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => jsonSafe(item, ancestors) ?? null);
    const entries = Object.entries(value).map(([key, item]) => [key, jsonSafe(item, ancestors)] as const);
    return Object.fromEntries(entries.filter(([, item]) => item !== undefined));
  } finally {
    ancestors.delete(value);
  }
}
