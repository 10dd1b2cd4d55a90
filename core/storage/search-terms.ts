/**
 * A user's query text turned into plain words, so that no character of it is ever read as
 * query syntax: FTS5 (`"`, `NEAR`, `*`, `-`, `:`, `^`, `AND`/`OR`/`NOT`) and tsquery (`&`,
 * `|`, `!`, `<->`, `:*`) both see only quoted or bare letters and digits.
 */

// Enough for any sentence a person or an agent asks; a longer text adds cost, not recall.
const MAX_TERMS = 64;
const WORD = /[\p{L}\p{N}]+/gu;

/** The distinct lower-cased words of `text` (letters and digits), in order, at most 64. */
export function searchTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const match of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    terms.add(match[0]);
    if (terms.size === MAX_TERMS) break;
  }
  return [...terms];
}

/**
 * An FTS5 MATCH expression: every word a quoted string (a `"` cannot occur in one: words
 * are letters and digits only), joined with OR so that a document holding any word matches
 * and bm25 ranks those holding more of them first.
 */
export function fts5Match(terms: readonly string[]): string {
  return terms.map((term) => `"${term}"`).join(' OR ');
}

/**
 * A tsquery text for `to_tsquery('simple', ...)`: the words joined with `|`, the same OR as
 * on SQLite. Words of letters and digits are plain lexemes to the tsquery parser.
 */
export function tsqueryText(terms: readonly string[]): string {
  return terms.join(' | ');
}

/**
 * The indexed text of a document: its fields' values, one per line, in key order. NUL
 * becomes a space: PostgreSQL refuses it in text, and it separates words anyway.
 */
export function documentText(fields: Readonly<Record<string, string>>): string {
  return Object.keys(fields)
    .sort()
    .map((key) => fields[key]!.replaceAll('\u0000', ' '))
    .join('\n');
}
