import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../errors.js';
import type { Logger } from '../logger.js';
import type {
  Caller,
  CallContext,
  ClientRequestOptions,
  ElicitationParams,
  ElicitationResult,
  McpLogLevel,
  ProgressUpdate,
  SamplingParams,
  SamplingResult,
} from '../plugins/plugin-types.js';
import { elicitFromClient, sampleFromClient, type AskingCall, type ClientLink } from './client-link.js';
import { logToClient } from './client-log.js';

/**
 * One call in progress: the CallContext its handler gets, and its cancellation. Calls are
 * the hot path, so what most handlers never touch is made on first use: the AbortSignal
 * (an AbortController costs more than a whole trivial call) and the logger child. What
 * asks the client (sample, elicit, logToClient) only keeps the session's link and the
 * request id until a handler uses it.
 */
export class RunningCall implements CallContext {
  readonly caller: Caller;
  /** Rejects with the reason when the call is aborted; raced against the handler. */
  readonly aborted: Promise<never>;
  readonly #bindings: { plugin: string; tool: string };
  readonly #parentLog: Logger;
  readonly #onProgress?: (update: ProgressUpdate) => void;
  readonly #timer: NodeJS.Timeout;
  #reject!: (reason: unknown) => void;
  #reason: GatewayError | undefined;
  readonly #timeoutMs: number;
  readonly #client: ClientLink | undefined;
  readonly #requestId: RequestId | undefined;
  #controller: AbortController | undefined;
  #log: Logger | undefined;

  constructor(
    options: {
      plugin: string;
      tool: string;
      timeoutMs: number;
      caller: Caller;
      onCancelable?: (cancel: () => void) => void;
      onProgress?: (update: ProgressUpdate) => void;
      /** The MCP session the call came from, and its request id: how to ask the client. */
      client?: ClientLink;
      requestId?: RequestId;
    },
    log: Logger,
  ) {
    this.caller = options.caller;
    this.#bindings = { plugin: options.plugin, tool: options.tool };
    this.#timeoutMs = options.timeoutMs;
    this.#client = options.client;
    this.#requestId = options.requestId;
    this.#parentLog = log;
    this.#onProgress = options.onProgress;
    this.aborted = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    this.#timer = setTimeout(
      () =>
        this.abort(
          new GatewayError('TOOL_TIMEOUT', `${options.tool} did not finish within ${options.timeoutMs} ms and was cancelled.`, {
            details: { timeoutMs: options.timeoutMs },
          }),
        ),
      options.timeoutMs,
    );
    options.onCancelable?.(this.#onCancel);
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#reason) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get log(): Logger {
    this.#log ??= this.#parentLog.child(this.#bindings);
    return this.#log;
  }

  progress(update: ProgressUpdate): void {
    if (!this.#reason) this.#onProgress?.(update);
  }

  sample(params: SamplingParams, options?: ClientRequestOptions): Promise<SamplingResult> {
    return sampleFromClient(this.#asking(), params, options);
  }

  elicit(params: ElicitationParams, options?: ClientRequestOptions): Promise<ElicitationResult> {
    return elicitFromClient(this.#asking(), params, options);
  }

  logToClient(level: McpLogLevel, data: unknown, options?: { readonly logger?: string }): boolean {
    const target = this.#client && this.#requestId !== undefined ? { link: this.#client, requestId: this.#requestId } : undefined;
    return logToClient(target, this.#bindings.plugin, () => this.log, level, data, options);
  }

  #asking(): AskingCall {
    return { link: this.#client, requestId: this.#requestId, transport: this.caller.transport, signal: this.signal, timeoutMs: this.#timeoutMs };
  }

  /** Cancels the call once: the signal fires and `aborted` rejects with `reason`. */
  abort(reason: GatewayError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject(reason);
  }

  /** Releases the timer. */
  settle(): void {
    clearTimeout(this.#timer);
  }

  #onCancel = (): void => {
    this.abort(new GatewayError('CANCELLED', 'The call was cancelled by the client or its connection closed.'));
  };
}
