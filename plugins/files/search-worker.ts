// Runs content searches off the main thread, one at a time, each request answered with its
// id. A model-supplied regex can backtrack for minutes; here that costs only this worker,
// which the plugin terminates when the call's signal fires.
import { parentPort } from 'node:worker_threads';
import picomatch from 'picomatch';
import { looksBinary, readWalkedFile, walk } from '@mcp-gateway/core';
import type { SearchMatch, SearchRequest, SearchResult } from './search.js';

const MAX_LINE = 500;
const READ_AHEAD = 16;

async function search(request: SearchRequest): Promise<SearchResult> {
  const flags = request.caseSensitive ? '' : 'i';
  const pattern = request.regex ? new RegExp(request.query, flags) : undefined;
  const needle = request.caseSensitive ? request.query : request.query.toLowerCase();
  const column = (line: string) => (pattern ? line.search(pattern) : (request.caseSensitive ? line : line.toLowerCase()).indexOf(needle));
  const included = request.include ? picomatch(request.include, { dot: true }) : undefined;
  const matches: SearchMatch[] = [];
  let filesScanned = 0;
  let full = false;
  const files: Array<{ path: string; relative: string }> = [];
  const { truncated: walkTruncated } = await walk(request.start, { gitignore: request.gitignore, exclude: request.exclude, maxEntries: request.maxEntries, refuseHardLinks: request.refuseHardLinks }, (entry) => {
    if (!entry.isDir && (!included || included(entry.relative) || included(entry.name))) files.push(entry);
  });
  // Files are read READ_AHEAD at a time (the thread pool has four threads, and each read is
  // several round trips) and scanned in walk order, so results stay stable.
  const contents = (from: number) => Promise.all(files.slice(from, from + READ_AHEAD).map((f) => readWalkedFile(f.path, request.start, { maxBytes: request.maxFileBytes, refuseHardLinks: request.refuseHardLinks })));
  let batch = contents(0);
  for (let index = 0; index < files.length && !full; index += READ_AHEAD) {
    const read = await batch;
    if (index + READ_AHEAD < files.length) batch = contents(index + READ_AHEAD);
    for (let k = 0; k < read.length && !full; k++) {
      full = scan(files[index + k]!, read[k]);
    }
  }
  return { matches, filesScanned, truncated: full || walkTruncated };

  /** Adds the file's matches; true once the result is full. */
  function scan(file: { relative: string }, bytes: Buffer | undefined): boolean {
    if (bytes === undefined || looksBinary(bytes)) return false;
    filesScanned++;
    const lines = bytes.toString('utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const at = column(lines[i]!);
      if (at === -1) continue;
      // Stop at the first match past the limit, so that exactly maxResults matches is not "truncated".
      if (matches.length >= request.maxResults) return true;
      const context = (from: number, to: number) => lines.slice(Math.max(0, from), Math.max(0, to)).map(clip);
      matches.push({
        path: file.relative,
        line: i + 1,
        column: at + 1,
        text: clip(lines[i]!),
        ...(request.contextLines > 0 ? { before: context(i - request.contextLines, i), after: context(i + 1, i + 1 + request.contextLines) } : {}),
      });
    }
    return false;
  }
}

function clip(line: string): string {
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

parentPort!.on('message', ({ id, request }: { id: number; request: SearchRequest }) => {
  search(request).then(
    (result) => parentPort!.postMessage({ id, ok: true, result }),
    (err: Error) => parentPort!.postMessage({ id, ok: false, message: err.message }),
  );
});
