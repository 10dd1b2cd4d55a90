import { createHash } from 'node:crypto';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/core';
import { inputRequired, type InputRequest, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { GatewayError, type ErrorTable } from '../errors.js';
import type { LinkRequestOptions } from '../catalog/client-link.js';
import { rpcFailure } from './rpc-failure.js';

/** What a requestState carries from one round to the next: whose call it is, and the answers so far. */
export interface RoundState {
  /** The call's binding (`callBinding`): a state works only for the call and caller it was minted for. */
  readonly call: string;
  /** The answers the handler used, by question key. */
  readonly answers: Record<string, unknown>;
}

/** The questions a 2026-07-28 server may put in an InputRequiredResult, and the schema of each answer. */
const QUESTIONS = {
  'sampling/createMessage': { kind: 'sampling', answer: CreateMessageResultSchema },
  'elicitation/create': { kind: 'elicitation', answer: ElicitResultSchema },
  'roots/list': { kind: 'roots', answer: ListRootsResultSchema },
} as const;

type QuestionMethod = keyof typeof QUESTIONS;

/** Checks accepted form content against the requested schema, as the SDK's Server does for a 2025 answer. */
const formChecker = new AjvJsonSchemaValidator();

/**
 * One round of a Multi Round-Trip Request (2026-07-28): a tools/call, prompts/get or
 * resources/read whose handler asks the client something. The revision has no requests from
 * server to client, so a question cannot wait for its answer: the round notes it, ends the
 * call, and the face answers with an InputRequiredResult listing the questions, and a signed
 * requestState carrying the answers used so far. The client retries the request with the
 * answers (`inputResponses`) and the state; the handler runs again from the start, and each
 * question it asks again resolves with its answer, found by key (the plugin's own, or the
 * nth question of its kind). No state stays on the gateway: any replica serves the retry.
 */
export class InputRound {
  readonly #call: string;
  readonly #codec: RequestStateCodec<RoundState>;
  /** Earlier rounds' answers (from the verified state) over this retry's inputResponses. */
  readonly #given: Map<string, unknown>;
  /** The answers this run of the handler used: what the next state carries. */
  readonly #used: Record<string, unknown> = {};
  readonly #asked: Record<string, InputRequest> = {};
  readonly #counts = new Map<string, number>();
  #ending: GatewayError | undefined;

  private constructor(call: string, codec: RequestStateCodec<RoundState>, given: Map<string, unknown>) {
    this.#call = call;
    this.#codec = codec;
    this.#given = given;
  }

  /**
   * The round of request `ctx` for the call bound as `call`. The SDK verified the state's
   * signature and age before the handler ran (`ServerOptions.requestState.verify`); a state
   * minted for another call or caller is refused here with REQUEST_STATE_INVALID.
   */
  static open(ctx: ServerContext, call: string, codec: RequestStateCodec<RoundState>, errors: ErrorTable): InputRound {
    const state = ctx.mcpReq.requestState<RoundState>();
    if (state !== undefined && state.call !== call) {
      throw rpcFailure(
        new GatewayError('REQUEST_STATE_INVALID', 'The requestState belongs to another call or caller: send the request again without requestState and inputResponses to start over.'),
        errors,
      );
    }
    const given = new Map(Object.entries(ctx.mcpReq.inputResponses ?? {}));
    // An answer of an earlier round stands: a retry cannot change what the handler acted on.
    for (const [key, answer] of Object.entries(state?.answers ?? {})) given.set(key, answer);
    return new InputRound(call, codec, given);
  }

  /**
   * The answer to a question, when this retry or an earlier round gave one; else the question
   * is noted, the call ends (once every question asked in the same turn of the event loop is
   * noted, so that questions asked together go out together) and the promise rejects with the
   * reason the call ended for. An answer that is not a valid result rejects with why.
   */
  ask(method: QuestionMethod, params: Record<string, unknown>, options: LinkRequestOptions): Promise<unknown> {
    const { kind, answer: schema } = QUESTIONS[method];
    const key = options.key ?? this.#nextKey(kind);
    if (this.#given.has(key)) {
      try {
        const answer = checkedAnswer(method, params, this.#given.get(key), schema);
        this.#used[key] = this.#given.get(key);
        return Promise.resolve(answer);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    this.#asked[key] = { method, params } as InputRequest;
    if (!this.#ending) {
      const ending = new GatewayError('INPUT_REQUIRED', `The call asked the client (${method}); a 2026-07-28 client gets the questions as an InputRequiredResult.`);
      this.#ending = ending;
      setImmediate(() => options.endCall(ending));
    }
    return new Promise((_, reject) => {
      if (options.signal.aborted) reject(options.signal.reason);
      else options.signal.addEventListener('abort', () => reject(options.signal.reason), { once: true });
    });
  }

  /** Whether the call ended to ask: then `inputRequired` is its answer. */
  get asking(): boolean {
    return this.#ending !== undefined;
  }

  /** The questions asked, with the state that carries this run's answers to the retry. */
  async inputRequired(ctx: ServerContext): Promise<InputRequiredResult> {
    const requestState = await this.#codec.mint({ call: this.#call, answers: this.#used }, ctx);
    return inputRequired({ inputRequests: this.#asked, requestState });
  }

  #nextKey(kind: string): string {
    const n = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, n);
    return `${kind}-${n}`;
  }
}

/**
 * What binds a requestState to one call: the method, what it names (a tool, a prompt, a
 * resource), its arguments and the caller, as a digest; the state carries only the digest.
 */
export function callBinding(method: string, target: string, args: unknown, caller: string): string {
  return createHash('sha256')
    .update(JSON.stringify([method, target, sortedJson(args), caller]))
    .digest('base64url');
}

/** `value` with every object's keys in order, so that `{a, b}` and `{b, a}` bind alike. */
function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedJson);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedJson((value as Record<string, unknown>)[key])]),
  );
}

/** The client's answer, checked as the SDK checks a 2025 client's: its result schema, and accepted form content against the form. */
function checkedAnswer(method: QuestionMethod, params: Record<string, unknown>, given: unknown, schema: (typeof QUESTIONS)[QuestionMethod]['answer']): unknown {
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw new Error(`the answer is not a ${method} result: ${parsed.error.message}`);
  const answer = parsed.data as { action?: string; content?: unknown };
  if (method === 'elicitation/create' && answer.action === 'accept') {
    const form = formChecker.getValidator(params.requestedSchema as Parameters<typeof formChecker.getValidator>[0])(answer.content ?? {});
    if (!form.valid) throw new Error(`the accepted content does not match the requested form: ${form.errorMessage}`);
  }
  return answer;
}
