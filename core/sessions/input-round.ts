import { createHash } from 'node:crypto';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/core';
import { inputRequired, type InputRequest, type InputRequiredResult, type RequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError, type ErrorTable } from '../contract/errors.js';
import type { LinkRequestOptions } from '../catalog/client-link.js';
import { addFormats } from '../lib/schema.js';
import { rpcFailure } from './rpc-failure.js';

/**
 * What the gateway reads of one 2026-07-28 request: the SDK hands its handlers a ServerContext,
 * which has all of it, and the tool-call stage that answers ahead of the SDK makes one from the
 * message (modern-call-stage.ts).
 */
export interface RequestContext {
  readonly mcpReq: Pick<ServerContext['mcpReq'], 'id' | 'envelope' | 'requestState' | 'inputResponses' | 'notify'>;
}

/** What a requestState carries from one round to the next: whose call it is, the answers so far, the questions just asked. */
export interface RoundState {
  /** The call's binding (`callBinding`): a state works only for the call and caller it was minted for. */
  readonly call: string;
  /** The answers the handler used, by question key, each with the digest of its question. */
  readonly answers: Record<string, { readonly q: string; readonly a: unknown }>;
  /** The digests of the questions this round asked, by key: a retry's answer counts only for the same question. */
  readonly asked: Record<string, string>;
}

/** The questions a 2026-07-28 server may put in an InputRequiredResult, and the schema of each answer. */
const QUESTIONS = {
  'sampling/createMessage': { kind: 'sampling', answer: CreateMessageResultSchema },
  'elicitation/create': { kind: 'elicitation', answer: ElicitResultSchema },
  'roots/list': { kind: 'roots', answer: ListRootsResultSchema },
} as const;

export type QuestionMethod = keyof typeof QUESTIONS;

/**
 * At most this many questions in one run of a handler: each round runs the handler again from
 * the start, so a handler that asks in a loop would otherwise let a client drive its work (and
 * the state it carries) without bound.
 */
const MAX_QUESTIONS = 32;

/** Checks accepted form content against the requested schema, as the SDK's Server does for a 2025 answer. */
const formChecker = addFormats(new Ajv2020({ strict: false, allErrors: true, addUsedSchema: false }));

/**
 * One round of a Multi Round-Trip Request (2026-07-28): a tools/call, prompts/get or
 * resources/read whose handler asks the client something. The revision has no requests from
 * server to client, so a question cannot wait for its answer: the round notes it, ends the
 * call, and the face answers with an InputRequiredResult listing the questions, and a signed
 * requestState carrying the answers used so far. The client retries the request with the
 * answers (`inputResponses`) and the state; the handler runs again from the start, and each
 * question it asks again resolves with its answer, found by key (the plugin's own, or the
 * nth question of its kind) and held to the question it answered (its method and params). No
 * state stays on the gateway: any replica serves the retry.
 */
export class InputRound {
  readonly #call: () => string;
  readonly #codec: RequestStateCodec<RoundState>;
  readonly #state: RoundState | undefined;
  readonly #responses: Record<string, unknown>;
  /** The answers this run of the handler used: what the next state carries. */
  readonly #used: Record<string, { q: string; a: unknown }> = {};
  readonly #asked = new Map<string, { request: InputRequest; digest: string }>();
  readonly #keys = new Set<string>();
  readonly #counts = new Map<string, number>();
  #ending: GatewayError | undefined;

  private constructor(call: () => string, codec: RequestStateCodec<RoundState>, state: RoundState | undefined, responses: Record<string, unknown>) {
    this.#call = call;
    this.#codec = codec;
    this.#state = state;
    this.#responses = responses;
  }

  /**
   * The round of request `ctx` for the call `call` binds (computed only when a state is there to
   * check or to mint, so that a call that asks nothing pays nothing). The SDK verified the
   * state's signature and age before the handler ran (`ServerOptions.requestState.verify`); a
   * state minted for another call or caller is refused here with REQUEST_STATE_INVALID.
   */
  static open(ctx: RequestContext, call: () => string, codec: RequestStateCodec<RoundState>, errors: ErrorTable): InputRound {
    const state = ctx.mcpReq.requestState<RoundState>();
    if (state !== undefined && state.call !== call()) {
      throw rpcFailure(
        new GatewayError('REQUEST_STATE_INVALID', 'The requestState belongs to another call or caller: send the request again without requestState and inputResponses to start over.'),
        errors,
      );
    }
    return new InputRound(call, codec, state, ctx.mcpReq.inputResponses ?? {});
  }

  /**
   * The answer to a question, when an earlier round (the state) or this retry gave one for the
   * same question; else the question is noted, the call ends (once every question asked in the
   * same turn of the event loop is noted, so that questions asked together go out together)
   * and the promise rejects with the reason the call ended for. An answer that is not a valid
   * result rejects with why.
   */
  ask(method: QuestionMethod, params: Record<string, unknown>, options: LinkRequestOptions): Promise<unknown> {
    const key = options.key ?? this.#nextKey(QUESTIONS[method].kind);
    // The plugin's mistakes: a plain error, logged, INTERNAL_ERROR for the caller.
    if (this.#keys.has(key)) return Promise.reject(new TypeError(`The question key "${key}" is used twice in one call; give each question its own key.`));
    if (this.#keys.size >= MAX_QUESTIONS) return Promise.reject(new TypeError(`A call may ask its client at most ${MAX_QUESTIONS} questions.`));
    this.#keys.add(key);
    const digest = questionDigest(method, params);
    const given = this.#answerTo(key, digest);
    if (given.found) {
      try {
        const answer = checkedAnswer(method, params, given.answer);
        this.#used[key] = { q: digest, a: answer };
        return Promise.resolve(answer);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    this.#asked.set(key, { request: { method, params } as InputRequest, digest });
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
  async inputRequired(): Promise<InputRequiredResult> {
    const asked = [...this.#asked];
    const state: RoundState = { call: this.#call(), answers: this.#used, asked: Object.fromEntries(asked.map(([key, q]) => [key, q.digest])) };
    return inputRequired({ inputRequests: Object.fromEntries(asked.map(([key, q]) => [key, q.request])), requestState: await this.#codec.mint(state) });
  }

  /**
   * An earlier round's answer stands (a retry that carries the state cannot change what the
   * handler acted on); else this retry's, when it answers the question the last round asked
   * under that key (without a state, a client answering ahead is taken at its word).
   */
  #answerTo(key: string, digest: string): { found: true; answer: unknown } | { found: false } {
    const earlier = this.#state?.answers[key];
    if (earlier && Object.hasOwn(this.#state!.answers, key) && earlier.q === digest) return { found: true, answer: earlier.a };
    if (!Object.hasOwn(this.#responses, key)) return { found: false };
    if (this.#state && this.#state.asked[key] !== digest) return { found: false };
    return { found: true, answer: this.#responses[key] };
  }

  #nextKey(kind: string): string {
    const n = (this.#counts.get(kind) ?? 0) + 1;
    this.#counts.set(kind, n);
    return `${kind}-${n}`;
  }
}

/** What identifies a question: its method and params, as a short digest. */
function questionDigest(method: string, params: Record<string, unknown>): string {
  return digestOf([method, sortedJson(params)]).slice(0, 22);
}

/**
 * What binds a requestState to one call: the method, what it names (a tool, a prompt, a
 * resource), its arguments and the caller, as a digest; the state carries only the digest.
 */
export function callBinding(method: string, target: string, args: unknown, caller: string): string {
  return digestOf([method, target, sortedJson(args), caller]);
}

function digestOf(parts: unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
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
export function checkedAnswer(method: QuestionMethod, params: Record<string, unknown>, given: unknown): unknown {
  const parsed = QUESTIONS[method].answer.safeParse(given);
  if (!parsed.success) throw new Error(`the answer is not a ${method} result: ${parsed.error.message}`);
  const answer = parsed.data as { action?: string; content?: unknown };
  if (method === 'elicitation/create' && answer.action === 'accept') {
    const schema = params.requestedSchema as object;
    // Compiled and dropped each time: Ajv keeps every schema object it compiled, and each
    // question brings its own (a plugin's inline form, an upstream server's).
    try {
      const validate = formChecker.compile(schema);
      if (!validate(answer.content ?? {})) throw new Error(`the accepted content does not match the requested form: ${formChecker.errorsText(validate.errors)}`);
    } finally {
      formChecker.removeSchema(schema);
    }
  }
  return answer;
}
