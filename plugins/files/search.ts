import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GatewayError } from '../../core/index.js';

export interface SearchRequest {
  start: string;
  query: string;
  regex: boolean;
  caseSensitive: boolean;
  include?: string;
  exclude?: string[];
  gitignore: boolean;
  contextLines: number;
  maxResults: number;
  maxFileBytes: number;
  maxEntries: number;
}

export interface SearchMatch {
  /** Relative to the folder searched. */
  path: string;
  line: number;
  column: number;
  text: string;
  before?: string[];
  after?: string[];
}

export interface SearchResult {
  matches: SearchMatch[];
  filesScanned: number;
  truncated: boolean;
}

// The compiled worker sits beside this file in dist/. Run from the TypeScript sources (tests,
// tsx), only the .ts exists, and Node 20 applies no --import loader inside workers: a small
// bootstrap registers tsx there first.
const compiled = new URL('./search-worker.js', import.meta.url);
const fromSource = !existsSync(fileURLToPath(compiled));

function startWorker(request: SearchRequest): Worker {
  if (!fromSource) return new Worker(compiled, { workerData: request });
  const entry = new URL('./search-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: request });
}

/** Runs the search in a worker thread, terminated at once when `signal` fires. */
export function searchFiles(request: SearchRequest, signal: AbortSignal): Promise<SearchResult> {
  if (request.regex) {
    try {
      new RegExp(request.query);
    } catch (err) {
      return Promise.reject(new GatewayError('INVALID_ARGUMENTS', `query is not a valid regular expression: ${(err as Error).message}`));
    }
  }
  return new Promise((resolve, reject) => {
    const worker = startWorker(request);
    const onAbort = () => {
      void worker.terminate();
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { ok: true; result: SearchResult } | { ok: false; message: string }) => {
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (message.ok) resolve(message.result);
      else reject(new Error(`search failed: ${message.message}`));
    });
    worker.once('error', (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
  });
}
