import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { GatewayError } from '@mcp-gateway/core';

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
  /** Skip files with other hard links (the gateway's refuseHardLinks). */
  refuseHardLinks: boolean;
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

// The compiled worker sits beside this file in dist/. Run from the TypeScript sources through
// tsx (scripts/tool-budgets.js boots every plugin that way), only the .ts exists, and Node 20
// applies no --import loader inside workers: a small bootstrap registers tsx there first.
const compiled = new URL('./search-worker.js', import.meta.url);
const fromSource = !existsSync(fileURLToPath(compiled));

function startWorker(): Worker {
  if (!fromSource) return new Worker(compiled);
  const entry = new URL('./search-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

type Reply = { id: number; ok: true; result: SearchResult } | { id: number; ok: false; message: string };

/**
 * Search worker threads, kept warm: starting one reloads its modules, which cost more than
 * a typical search. A search takes the idle worker, or starts one when none is idle
 * (concurrent searches each need their own); when it ends, its worker becomes the idle one
 * unless there already is one. A worker whose call is aborted is terminated at once (a
 * regex backtracking for minutes costs only that worker) and never reused.
 */
export class SearchWorkers {
  #idle: Worker | undefined;
  #started = 0;
  #lastId = 0;

  /** Workers started so far; tests observe reuse through it. */
  get started(): number {
    return this.#started;
  }

  /** Runs the search in a worker thread, terminated at once when `signal` fires. */
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchResult> {
    if (request.regex) {
      try {
        new RegExp(request.query);
      } catch (err) {
        return Promise.reject(new GatewayError('INVALID_ARGUMENTS', `query is not a valid regular expression: ${(err as Error).message}`));
      }
    }
    if (signal.aborted) return Promise.reject(signal.reason);
    // Each call is numbered: a worker only ever serves one call at a time and an aborted one
    // is never reused, so a reply for another call cannot arrive; the check makes sure.
    const id = ++this.#lastId;
    return new Promise((resolve, reject) => {
      const worker = this.#take();
      const settle = (reusable: boolean) => {
        signal.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (reusable) this.#park(worker);
        else void worker.terminate();
      };
      const onAbort = () => {
        settle(false);
        reject(signal.reason);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        settle(true);
        if (reply.ok) resolve(reply.result);
        else reject(new Error(`search failed: ${reply.message}`));
      };
      const onError = (err: Error) => {
        settle(false);
        reject(err);
      };
      const onExit = (code: number) => {
        settle(false);
        reject(new Error(`search worker stopped (exit code ${code}) before answering`));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ id, request });
    });
  }

  /** Terminates the idle worker; a search started later starts a new one. */
  async close(): Promise<void> {
    const idle = this.#idle;
    this.#idle = undefined;
    await idle?.terminate();
  }

  #take(): Worker {
    const idle = this.#idle;
    if (idle !== undefined) {
      this.#idle = undefined;
      idle.ref();
      return idle;
    }
    const worker = startWorker();
    this.#started++;
    // Between calls no call listens: an error or exit then only drops the idle worker (and an
    // 'error' event without a listener would crash the gateway).
    const forget = () => {
      if (this.#idle === worker) this.#idle = undefined;
    };
    worker.on('error', forget).on('exit', forget);
    return worker;
  }

  #park(worker: Worker): void {
    if (this.#idle !== undefined) {
      void worker.terminate();
      return;
    }
    // An idle worker must not keep the process alive.
    worker.unref();
    this.#idle = worker;
  }
}

