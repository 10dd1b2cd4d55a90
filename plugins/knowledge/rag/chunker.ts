// Cutting a document into chunks: Markdown by its headings (each chunk knows its heading
// path), everything else by size with overlap, cut on line breaks where one is near.

export interface Chunk {
  /** "Guide > Install" for Markdown; "lines 12-48" for code and text. */
  readonly section: string;
  readonly content: string;
}

export interface ChunkOptions {
  readonly chunkChars: number;
  readonly overlapChars: number;
}

const MARKDOWN = /\.(md|markdown|mdx|mkd)$/i;

/** The chunks of a file's text, in order; none for a text of only blanks. */
export function chunkText(path: string, text: string, options: ChunkOptions): Chunk[] {
  const normalised = text.replace(/\r\n?/g, '\n');
  const chunks = MARKDOWN.test(path) ? chunkMarkdown(normalised, options) : bySize(normalised.split('\n'), 1, options, (from, to) => `lines ${from}-${to}`);
  return chunks.filter((c) => c.content.trim() !== '');
}

/**
 * Sections between ATX headings (`#` to `######`, not inside fenced code), each titled by the
 * path of headings above it; a section longer than a chunk is cut by size and every part keeps
 * the section's title. Text before the first heading has the title "".
 */
function chunkMarkdown(text: string, options: ChunkOptions): Chunk[] {
  const lines = text.split('\n');
  const trail: string[] = [];
  const chunks: Chunk[] = [];
  let section = '';
  let start = 0;
  let fence: string | undefined;
  const flush = (end: number) => {
    if (end > start) chunks.push(...bySize(lines.slice(start, end), start + 1, options, () => section));
  };
  lines.forEach((line, at) => {
    // A `#` line inside fenced code is a comment or a shell prompt, not a heading.
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && fenceMark) fence = fenceMark;
    else if (fence !== undefined && fenceMark?.[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
    if (fence !== undefined || fenceMark) return;
    const heading = atxHeading(line);
    if (!heading) return;
    flush(at);
    const { level } = heading;
    trail.length = Math.min(trail.length, level - 1);
    while (trail.length < level - 1) trail.push('');
    trail.push(shortTitle(heading.title));
    section = trail.filter(Boolean).join(' > ');
    start = at; // the heading line opens its own section's first chunk
  });
  flush(lines.length);
  return chunks;
}

/**
 * A heading's length at most in a section title. Every chunk of a section carries its title
 * (and its vector is made from it), so a heading line of a megabyte would otherwise be
 * stored, indexed and embedded once per chunk; the full heading stays in the chunk's text.
 */
export const MAX_TITLE_CHARS = 200;

function shortTitle(title: string): string {
  if (title.length <= MAX_TITLE_CHARS) return title;
  let end = MAX_TITLE_CHARS - 1;
  // Never half of a surrogate pair.
  const last = title.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${title.slice(0, end)}…`;
}

const isBlank = (char: string | undefined) => char === ' ' || char === '\t';

/**
 * The level and title of an ATX heading line (CommonMark: up to 3 spaces, 1 to 6 `#`, then a
 * space, a tab or the end of the line; the title trimmed, without a closing run of `#` that
 * follows a blank), or undefined for any other line. Parsed by hand, in one pass: the regex
 * it replaces backtracked quadratically over a long run of blanks (`# a` + 100k spaces + `b`
 * held the event loop for seconds).
 */
export function atxHeading(line: string): { level: number; title: string } | undefined {
  let at = 0;
  while (at < 3 && line[at] === ' ') at++;
  let level = 0;
  while (level < 7 && line[at + level] === '#') level++;
  if (level === 0 || level > 6) return undefined;
  at += level;
  if (at < line.length && !isBlank(line[at])) return undefined;
  let end = line.length;
  while (at < end && isBlank(line[at])) at++;
  while (end > at && isBlank(line[end - 1])) end--;
  // A closing sequence: `#`s at the end, after a blank or making up the whole title.
  let closing = end;
  while (closing > at && line[closing - 1] === '#') closing--;
  if (closing < end && (closing === at || isBlank(line[closing - 1]))) {
    end = closing;
    while (end > at && isBlank(line[end - 1])) end--;
  }
  return { level, title: line.slice(at, end) };
}

/**
 * Lines gathered into chunks of at most `chunkChars`, each next chunk starting with about
 * `overlapChars` of the end of the one before (whole lines where they fit). A line longer
 * than a chunk is cut inside, with the same overlap. `firstLine` numbers the lines for titles.
 */
function bySize(lines: readonly string[], firstLine: number, options: ChunkOptions, title: (from: number, to: number) => string): Chunk[] {
  const size = options.chunkChars;
  // An overlap of half a chunk or more would make each step move by less than the overlap.
  const overlap = Math.min(options.overlapChars, Math.floor(size / 2) - 1);
  const pieces = lines.flatMap((line, at) => splitLong(line, size - 1, overlap).map((text, part, all) => ({ text: part === all.length - 1 ? `${text}\n` : text, line: firstLine + at })));
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < pieces.length) {
    let end = start;
    let length = 0;
    while (end < pieces.length && (end === start || length + pieces[end]!.text.length <= size)) length += pieces[end++]!.text.length;
    const content = pieces.slice(start, end).map((p) => p.text).join('').trimEnd();
    chunks.push({ section: title(pieces[start]!.line, pieces[end - 1]!.line), content });
    if (end >= pieces.length) break;
    // Step back over whole pieces while they fit in the overlap, but always move forward.
    let next = end;
    let kept = 0;
    while (next - 1 > start && kept + pieces[next - 1]!.text.length <= overlap) kept += pieces[--next]!.text.length;
    start = next;
  }
  return chunks;
}

/** A line longer than `size`, as parts of `size` that overlap by `overlap`; a shorter one as it is. */
function splitLong(line: string, size: number, overlap: number): string[] {
  if (line.length <= size) return [line];
  const parts: string[] = [];
  for (let at = 0; at < line.length; at += size - overlap) {
    parts.push(line.slice(at, at + size));
    if (at + size >= line.length) break;
  }
  return parts;
}
