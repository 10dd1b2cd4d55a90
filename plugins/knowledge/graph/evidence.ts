// Checks a claim's evidence against the files as they are now: does the file exist, is the
// snippet in it, at the lines cited? After TaskWing's verifier (REFERENCE-SYSTEMS.md §5.3),
// without its two quirks: paths go through the workspace sandbox (not a string-prefix check),
// and word similarity counts each word once.
import { createHash } from 'node:crypto';
import { isGatewayError, looksBinary, type Workspace } from '@mcp-gateway/core';

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
  /** The code of core's refusal when the workspace's rules kept the file from being read (HARD_LINK_REFUSED, OUTSIDE_WORKSPACE...). */
  readonly code?: string;
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

/** Files larger than this are searched for the snippet, but not scored for partial word overlap. */
const SIMILARITY_MAX_BYTES = 1024 * 1024;

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

/** A cited file as read once for a verification: its text and what is derived from it, or why it could not be. */
type CitedFile = { readonly text: string; readonly hash: string; readonly lines: string[]; normalised?: string } | { readonly reason: string; readonly code?: string };

/**
 * Reads a file through core's workspace read (ctx.workspace.readFile), the one every plugin
 * uses: resolved through the sandbox, opened without following a link and without blocking,
 * then checked on the open descriptor — inside the workspace, a regular file, no other hard
 * link (refuseHardLinks), not too large. A refused file tells nothing of what it holds: the
 * item fails with core's code and reason, whatever it cites.
 */
async function readCited(workspace: Workspace, path: string, limits: EvidenceLimits): Promise<CitedFile> {
  let bytes: Buffer;
  try {
    ({ bytes } = await workspace.readFile(path, { maxBytes: limits.maxFileBytes, maxBytesSetting: 'graph.maxFileBytes' }));
  } catch (err) {
    if (isGatewayError(err)) return { reason: err.message.replace(/\.$/, ''), code: err.code };
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { reason: 'file does not exist' };
    return { reason: `could not be read (${code ?? 'error'})` };
  }
  if (looksBinary(bytes)) return { reason: 'binary file' };
  const text = bytes.toString('utf8');
  return { text, hash: sha256(text), lines: linesOf(text) };
}

/** Reads each distinct path once, however many items cite it. */
function fileReader(workspace: Workspace, limits: EvidenceLimits): (path: string) => Promise<CitedFile> {
  const files = new Map<string, Promise<CitedFile>>();
  return (path) => {
    let file = files.get(path);
    if (!file) files.set(path, (file = readCited(workspace, path, limits)));
    return file;
  };
}

/** The sha256 of a file's text, or undefined when it cannot be read as evidence. */
export async function hashFile(workspace: Workspace, path: string, limits: EvidenceLimits): Promise<string | undefined> {
  const file = await readCited(workspace, path, limits);
  return 'hash' in file ? file.hash : undefined;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

async function checkItem(item: EvidenceItem, index: number, read: (path: string) => Promise<CitedFile>): Promise<ItemResult> {
  const base = { index, path: item.path, file_exists: false, snippet_found: false, lines_match: null, similarity: 0 };
  const file = await read(item.path);
  if ('reason' in file) return { ...base, status: 'failed', reason: file.reason, ...(file.code ? { code: file.code } : {}) };
  const { text, lines: fileLines } = file;
  const found = { ...base, file_exists: true, file_hash: file.hash };
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
  file.normalised ??= normalise(text);
  let snippetFound = snippet !== '' && file.normalised.includes(snippet);
  // Word overlap is linear in the file but costs; past SIMILARITY_MAX_BYTES a miss is a miss.
  let similarity = snippetFound ? 1 : snippet !== '' && text.length <= SIMILARITY_MAX_BYTES ? bestWindowSimilarity(snippet, fileLines) : 0;
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
  const read = fileReader(workspace, limits);
  const results: ItemResult[] = [];
  // One item after another: the files are read once each, and a large one is not held many times over.
  for (const [index, item] of items.entries()) results.push(await checkItem(item, index, read));
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
