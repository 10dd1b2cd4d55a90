// Checks a claim's evidence against the files as they are now: does the file exist, is the
// snippet in it, at the lines cited? After TaskWing's verifier (REFERENCE-SYSTEMS.md §5.3),
// without its two quirks: paths go through the workspace sandbox (not a string-prefix check),
// and word similarity counts each word once.
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { Workspace } from '../../../core/index.js';

/** One piece of evidence as an agent cites it. Lines are 1-based and inclusive. */
export interface EvidenceItem {
  readonly path: string;
  readonly start_line?: number;
  readonly end_line?: number;
  readonly snippet?: string;
  /** Literal text (not a regular expression) that must occur in the file when the snippet does not. */
  readonly grep_pattern?: string;
}

export type ItemStatus = 'verified' | 'partial' | 'failed';

export interface ItemResult {
  readonly index: number;
  readonly path: string;
  readonly status: ItemStatus;
  readonly file_exists: boolean;
  readonly snippet_found: boolean;
  readonly lines_match: boolean | null;
  /** Word overlap of the snippet with the best-matching part of the file, 0 to 1. */
  readonly similarity: number;
  /** sha256 of the file as checked; absent when it could not be read. */
  readonly file_hash?: string;
  /** Why the item failed or is partial, in words. */
  readonly reason?: string;
  /** The cited lines as they are now (at most 500 characters), when lines were cited. */
  readonly actual?: string;
}

/** A node's verdict: `unverified` when it cites nothing. */
export type NodeStatus = 'verified' | 'partial' | 'rejected' | 'unverified';

export interface Verification {
  readonly status: NodeStatus;
  /** What the verdict adds to the confidence the agent gave (+0.1, 0, −0.1, −0.3). */
  readonly adjustment: number;
  readonly items: readonly ItemResult[];
  readonly verified_at: string;
}

export interface EvidenceLimits {
  readonly maxFileBytes: number;
}

/** Trimmed lines, runs of blanks as one space, blank lines dropped. */
export function normalise(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
}

/**
 * The best word overlap between the snippet and any run of as many lines of the file, in one
 * pass: a window slides line by line, counting in how many of its lines each word occurs.
 */
function bestWindowSimilarity(snippet: string, fileLines: readonly string[]): number {
  const target = words(snippet);
  const span = Math.max(1, snippet.split('\n').length);
  const lineWords = fileLines.map((line) => [...words(line)]);
  const inWindow = new Map<string, number>();
  let shared = 0;
  const add = (line: readonly string[], delta: 1 | -1) => {
    for (const word of line) {
      const count = (inWindow.get(word) ?? 0) + delta;
      if (count === 0) inWindow.delete(word);
      else inWindow.set(word, count);
      // A word enters the window (count 0 → 1) or leaves it (1 → 0).
      if (target.has(word) && count === (delta === 1 ? 1 : 0)) shared += delta;
    }
  };
  let best = 0;
  for (let i = 0; i < lineWords.length; i++) {
    add(lineWords[i]!, 1);
    if (i >= span) add(lineWords[i - span]!, -1);
    if (i >= span - 1 || i === lineWords.length - 1) {
      const union = target.size + inWindow.size - shared;
      best = Math.max(best, union === 0 ? 1 : shared / union);
      if (best === 1) break;
    }
  }
  return best;
}

async function readText(realPath: string, limits: EvidenceLimits): Promise<{ text: string } | { reason: string }> {
  let info;
  try {
    info = await stat(realPath);
  } catch {
    return { reason: 'file does not exist' };
  }
  if (!info.isFile()) return { reason: 'not a regular file' };
  if (info.size > limits.maxFileBytes) return { reason: `file is ${info.size} bytes, over the ${limits.maxFileBytes} this plugin reads` };
  // Opened only once known to be a regular file: a FIFO or device would block or never end.
  const handle = await open(realPath, 'r');
  try {
    const bytes = await handle.readFile();
    if (bytes.includes(0)) return { reason: 'binary file' };
    return { text: bytes.toString('utf8') };
  } finally {
    await handle.close();
  }
}

/** The sha256 of a file's bytes, or undefined when it cannot be read as evidence. */
export async function hashFile(workspace: Workspace, path: string, limits: EvidenceLimits): Promise<string | undefined> {
  let real: string;
  try {
    real = workspace.resolve(path);
  } catch {
    return undefined;
  }
  const read = await readText(real, limits);
  return 'text' in read ? sha256(read.text) : undefined;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function checkItem(item: EvidenceItem, index: number, workspace: Workspace, limits: EvidenceLimits): Promise<ItemResult> {
  const base = { index, path: item.path, file_exists: false, snippet_found: false, lines_match: null, similarity: 0 };
  let real: string;
  try {
    real = workspace.resolve(item.path);
  } catch (err) {
    return { ...base, status: 'failed', reason: (err as Error).message.replace(/\.$/, '') };
  }
  const read = await readText(real, limits);
  if ('reason' in read) return { ...base, status: 'failed', reason: read.reason };
  const text = read.text;
  const fileLines = linesOf(text);
  const found = { ...base, file_exists: true, file_hash: sha256(text) };
  const snippet = normalise(item.snippet ?? '');
  const tooShort = `the file has only ${fileLines.length} lines`;

  let linesMatch: boolean | null = null;
  let actual: string | undefined;
  if (item.start_line !== undefined) {
    const end = item.end_line ?? item.start_line;
    if (end < item.start_line) return { ...found, status: 'failed', reason: `end_line ${end} is before start_line ${item.start_line}` };
    if (item.start_line > fileLines.length) {
      linesMatch = false;
    } else {
      const cited = fileLines.slice(item.start_line - 1, end).join('\n');
      actual = cited.slice(0, 500);
      linesMatch = snippet === '' || normalise(cited).includes(snippet);
    }
  }
  const shown = actual !== undefined ? { actual } : {};

  // Nothing to compare (the path alone, or lines without text): the claim is not checked.
  if (snippet === '' && item.grep_pattern === undefined) {
    if (linesMatch === false) return { ...found, lines_match: false, status: 'failed', reason: tooShort };
    return { ...found, lines_match: linesMatch, ...shown, status: 'partial', reason: 'cites no text: add the snippet the claim rests on to verify it' };
  }
  let snippetFound = snippet !== '' && normalise(text).includes(snippet);
  let similarity = snippetFound ? 1 : snippet !== '' ? bestWindowSimilarity(snippet, fileLines) : 0;
  let via: string | undefined;
  if (!snippetFound && item.grep_pattern !== undefined && text.includes(item.grep_pattern)) {
    snippetFound = true;
    similarity = Math.max(similarity, 0.6);
    via = snippet === '' ? 'only grep_pattern cited: found, but a snippet would verify it' : 'snippet not found; grep_pattern found';
  }
  const result = { ...found, snippet_found: snippetFound, lines_match: linesMatch, similarity: round(similarity), ...shown };
  if (snippetFound && linesMatch !== false && !via) return { ...result, status: 'verified' };
  if (snippetFound || similarity > 0.5) {
    const reason = via ?? (linesMatch === false ? (item.start_line! > fileLines.length ? tooShort : 'snippet found, but not at the cited lines') : `snippet not found; ${Math.round(similarity * 100)}% of its words appear together`);
    return { ...result, status: 'partial', reason };
  }
  return { ...result, status: 'failed', reason: snippet === '' ? 'grep_pattern not found in the file' : 'snippet not found in the file' };
}

/** The file's lines; a final line break ends the last line, it does not start another. */
function linesOf(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Checks every item; the node's verdict and the confidence it earns follow TaskWing's rules. */
export async function verifyEvidence(items: readonly EvidenceItem[], workspace: Workspace, limits: EvidenceLimits): Promise<Verification> {
  const results = await Promise.all(items.map((item, index) => checkItem(item, index, workspace, limits)));
  const verified_at = new Date().toISOString();
  const verified = results.filter((r) => r.status === 'verified').length;
  const partial = results.filter((r) => r.status === 'partial').length;
  const verdict = (status: NodeStatus, adjustment: number): Verification => ({ status, adjustment, items: results, verified_at });
  if (results.length === 0) return verdict('unverified', 0);
  if (verified === results.length) return verdict('verified', 0.1);
  if (verified + partial === results.length) return verdict('partial', 0);
  if (verified + partial > 0) return verdict('partial', -0.1);
  return verdict('rejected', -0.3);
}

/** Confidence kept in [0, 1], at three decimals. */
export function adjustedConfidence(base: number, adjustment: number): number {
  return round(Math.min(1, Math.max(0, base + adjustment)));
}
