/** A JSON text with a key that must never reach a handler. */
export class ForbiddenKeyError extends Error {}

/**
 * JSON.parse keeps a `"__proto__"` key as an ordinary own property, but the SDK's schema
 * parsing later copies objects by assignment, which turns that key into the prototype of the
 * tool's arguments: `{"__proto__": {"force": true}}` would slip past `additionalProperties:
 * false` and make `args.force` true. Such keys are refused outright, as fastify's own parser
 * would. Every transport, HTTP included, parses with this. The reviver is slow, so it runs
 * only when the key could be present, written plainly or with \u escapes.
 */
export function parseJson(line: string): unknown {
  if (!line.includes('__proto__') && !line.includes('\\u')) return JSON.parse(line);
  return JSON.parse(line, (key, value: unknown) => {
    if (key === '__proto__') throw new ForbiddenKeyError('Invalid Request: object keys named "__proto__" are not accepted.');
    return value;
  });
}

/** Whether `JSON.stringify` can express `value` (no BigInt, no cycle); undefined counts as absent. */
export function isJsonSerialisable(value: unknown): boolean {
  if (value === undefined) return true;
  try {
    JSON.stringify(value);
    return true;
  } catch {
    return false;
  }
}

/** A JSON object: not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
