import { SdkError, SdkErrorCode, type InputRequest } from '@modelcontextprotocol/server';
import type { LinkRequestOptions } from '../catalog/client-link.js';
import type { Logger } from '../lib/logger.js';
import { checkedAnswer, type QuestionMethod } from '../sessions/input-round.js';
import type { TaskRow, TaskStore } from './task-store.js';

/** How a task ended: what `tasks/get` then shows. */
export type TaskEnd =
  | { readonly status: 'completed'; readonly result: Record<string, unknown> }
  | { readonly status: 'failed'; readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } }
  | { readonly status: 'cancelled' };

interface OpenQuestion {
  readonly method: QuestionMethod;
  readonly params: Record<string, unknown>;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * One call that became a task, on the gateway that runs it. Its questions to the client are
 * written to the task (`input_required`, with `inputRequests`) and wait there: a client's
 * `tasks/update`, on any gateway, stores the answers and says so (Tasks.changed); the run then
 * takes the answers of its open questions, checked as a 2025 client's are. A question waits at
 * most its time limit (`options.timeoutMs`, the tool's by default), as a 2025 client's does;
 * one that ends unanswered leaves the task. A `tasks/cancel` ends the call as a client's
 * cancellation does.
 */
export class TaskRun {
  /** The task as it was stored: what the CreateTaskResult shows. */
  readonly task: TaskRow;
  /** The Tasks that made this run: only its store is used here. */
  readonly #tasks: { readonly store: TaskStore };
  readonly #cancel: () => void;
  readonly #log: Logger;
  readonly #open = new Map<string, OpenQuestion>();
  /** Keys never repeat within a task (the extension's rule). */
  readonly #used = new Set<string>();
  readonly #counts = new Map<string, number>();
  #reading: Promise<void> | undefined;
  #again = false;

  constructor(tasks: { readonly store: TaskStore }, task: TaskRow, cancel: () => void, log: Logger) {
    this.task = task;
    this.#tasks = tasks;
    this.#cancel = cancel;
    this.#log = log;
  }

  ask(method: QuestionMethod, params: Record<string, unknown>, options: LinkRequestOptions): Promise<unknown> {
    const key = this.#keyFor(method, options.key);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => close(reject)(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out')), options.timeout);
      const aborted = () => close(reject)(options.signal.reason);
      const close =
        (then: (value: unknown) => void, answered = false) =>
        (value: unknown) => {
          clearTimeout(timer);
          options.signal.removeEventListener('abort', aborted);
          this.#open.delete(key);
          // A question that ends unanswered is no longer the client's to answer.
          if (!answered) this.#tasks.store.answered(this.task.taskId, [key]).catch(() => {});
          then(value);
        };
      if (options.signal.aborted) return aborted();
      options.signal.addEventListener('abort', aborted, { once: true });
      this.#open.set(key, { method, params, resolve: close(resolve, true), reject: close(reject, true) });
      this.#tasks.store.ask(this.task.taskId, key, { method, params } as InputRequest).catch((err: unknown) => this.#open.get(key)?.reject(err));
    });
  }

  /** The task's row may have changed elsewhere: takes the answers that came, and honours a cancel. */
  changed(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = this.#read()
      .catch((err: unknown) => this.#log.warn({ err, tool: this.task.tool }, 'task state not read'))
      .finally(() => {
        this.#reading = undefined;
        if (this.#again) {
          this.#again = false;
          this.changed();
        }
      });
  }

  async #read(): Promise<void> {
    const row = await this.#tasks.store.get(this.task.taskId);
    if (!row) return;
    if (row.cancelRequested) this.#cancel();
    const taken = [...this.#open.keys()].filter((key) => Object.hasOwn(row.answers, key));
    if (taken.length === 0) return;
    await this.#tasks.store.answered(this.task.taskId, taken);
    for (const key of taken) {
      const question = this.#open.get(key);
      if (!question) continue;
      try {
        question.resolve(checkedAnswer(question.method, question.params, row.answers[key]));
      } catch (err) {
        question.reject(err);
      }
    }
  }

  /** Records how the call ended; a task already final (cancelled meanwhile) keeps its end. */
  async finish(end: TaskEnd): Promise<void> {
    await this.#tasks.store.update(this.task.taskId, {
      status: end.status,
      inputRequests: {},
      ...(end.status === 'completed' ? { result: end.result } : {}),
      ...(end.status === 'failed' ? { error: end.error, statusMessage: end.error.message } : {}),
    });
  }

  /** The plugin's key, else `<kind>-<n>` as a round names them; one already used in this task gets `-2`, `-3`… */
  #keyFor(method: QuestionMethod, given: string | undefined): string {
    const kind = method.split('/')[0]!;
    const n = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, n);
    const base = given ?? `${kind}-${n}`;
    let key = base;
    for (let again = 2; this.#used.has(key); again++) key = `${base}-${again}`;
    this.#used.add(key);
    return key;
  }
}
