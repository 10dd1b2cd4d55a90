// Cutting text a caller chose (an MCP client names itself, with a name of any length) by
// characters as JSON Schema's maxLength counts them: code points, not UTF-16 units. A cut
// never splits a surrogate pair, and a value cut to a schema's maxLength passes that schema.

/**
 * The first `max` code points of `text`. Walks at most `max` characters, never the whole text:
 * `[...text].slice(0, max)` would first build an array of every character of a 10 MiB name.
 */
export function firstCodePoints(text: string, max: number): string {
  // A string has at least as many UTF-16 units as code points: short ones need no walk.
  if (text.length <= max) return text;
  let units = 0;
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    units += char.length;
    count += 1;
  }
  return text.slice(0, units);
}
