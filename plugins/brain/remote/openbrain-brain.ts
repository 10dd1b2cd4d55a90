// The OpenBrain HTTP API (Core MCP's direct brain): /v1/brain/remember, recall, forget/{id},
// list. It knows less than a gateway's brain, and this adapter says so rather than pretend:
// no list paging, no tombstones (forget deletes), no ids chosen by the writer (an import
// gets new ids), no tags or confidence filter on list. Those filters are applied here.
import { randomUUID } from 'node:crypto';
import type { Logger } from '@mcp-gateway/core';
import type { Brain, BrainCall } from '../brain.js';
import type { RaiseError } from '../declaration.js';
import { newMemory, type ForgetResult, type ImportSummary, type ListQuery, type ListResult, type Memory, type RecallQuery, type RecallResult, type RememberInput, type RememberResult } from '../model.js';
import { ShapeProblem } from './gateway-answers.js';
import type { RemoteAnswer, RemoteClient, RemoteRequest } from './http-client.js';
import { memoryImport } from './openbrain-import.js';
import { filtered, memoryFromOpenBrain, newestFirst, type OpenBrainMemory } from './openbrain-memories.js';

/** How many more memories to ask for when filters apply here only (tags, several types, confidence on list). */
const OVERFETCH = 5;
const MAX_TOP_K = 100;
const MAX_LIST = 500;
/** What export asks one list for: OpenBrain has no paging, so an export is what one answer holds. */
const EXPORT_LIMIT = 10_000;

export interface OpenBrainDeps {
  readonly client: RemoteClient;
  readonly error: RaiseError;
  readonly log: Logger;
  /** remote.agentId: the agent_id of every memory written; default the caller's identity. */
  readonly agentId?: string;
}

export class OpenBrainBrain implements Brain {
  readonly kind = 'openbrain' as const;
  readonly #deps: OpenBrainDeps;
  readonly #import: ReturnType<typeof memoryImport>;

  constructor(deps: OpenBrainDeps) {
    this.#deps = deps;
    this.#import = memoryImport((input, agent, key, call) => this.#remember(input, agent, key, call), deps.log);
  }

  remember(input: RememberInput, call: BrainCall): Promise<RememberResult> {
    // Idempotency-Key: chosen before the first attempt, so that a retry after a lost answer
    // is answered with the memory already stored instead of a second copy.
    return this.#remember(input, this.#deps.agentId ?? call.agent, input.id ?? randomUUID(), call);
  }

  async recall(query: RecallQuery, call: BrainCall): Promise<RecallResult> {
    const types = query.types ?? [];
    const topK = query.tags?.length ? Math.min(MAX_TOP_K, query.top_k * OVERFETCH) : query.top_k;
    const body = {
      query: query.query,
      top_k: topK,
      ...pick(query, ['org', 'project', 'agent_id', 'min_confidence']),
      ...(types.length === 0 ? {} : { type: types.length === 1 ? types[0] : types }),
    };
    const answer = await this.#request({ method: 'POST', path: '/v1/brain/recall', body, tool: 'brain_recall' }, call);
    const memories = filtered(this.#memories(answer), query, Date.now())
      .map((m) => ({ ...m, score: m.score ?? 0 }))
      .sort((a, b) => b.score - a.score)
      .slice(0, query.top_k);
    const degraded = query.mode === 'lexical' || query.mode === 'hybrid' ? `OpenBrain ranks by meaning only: ${query.mode} ranking is not available there.` : undefined;
    return { memories, mode: 'vector', ...(degraded ? { degraded } : {}) };
  }

  async forget(id: string, _reason: string | undefined, call: BrainCall): Promise<ForgetResult> {
    // OpenBrain deletes: no tombstone, and the reason has nowhere to go.
    await this.#request({ method: 'DELETE', path: `/v1/brain/forget/${encodeURIComponent(id)}`, tool: 'brain_forget' }, call, { id });
    return { id, forgotten: true, forgotten_at: new Date().toISOString() };
  }

  async list(query: ListQuery, call: BrainCall): Promise<ListResult> {
    if (query.cursor !== undefined) {
      throw this.#deps.error('INVALID_ARGUMENTS', 'The remote brain is an OpenBrain API, whose lists have no pages (no next_cursor is given): leave cursor out.');
    }
    const types = query.types ?? [];
    const hereOnly = Boolean(query.tags?.length) || types.length > 1 || query.min_confidence !== undefined;
    const limit = hereOnly ? Math.min(MAX_LIST, query.limit * OVERFETCH) : query.limit;
    const params: Record<string, string> = { ...pick(query, ['org', 'project', 'agent_id'] as const), limit: String(limit) };
    if (types.length === 1) params.type = types[0]!;
    const memories = await this.#list(params, call);
    const sorted = newestFirst(filtered(memories, query, Date.now()));
    return { memories: (query.order === 'oldest' ? sorted.reverse() : sorted).slice(0, query.limit) };
  }

  import(memories: readonly Memory[], call: BrainCall): Promise<ImportSummary> {
    return this.#import(memories, call);
  }

  /** What one list answer holds (OpenBrain has no paging), oldest first, with no filter. */
  async *export(call: BrainCall): AsyncIterable<Memory> {
    const memories = await this.#list({ limit: String(EXPORT_LIMIT) }, call);
    if (memories.length >= EXPORT_LIMIT) this.#deps.log.warn({ limit: EXPORT_LIMIT }, 'brain export: OpenBrain answered as many memories as asked for; older ones may be missing (its list has no paging)');
    yield* newestFirst(memories).reverse();
  }

  async #remember(input: RememberInput, agent: string, key: string, call: BrainCall): Promise<RememberResult> {
    const body = {
      content: input.content,
      type: input.type,
      tags: input.tags,
      agent_id: agent,
      confidence: input.confidence,
      ...pick(input, ['org', 'project', 'supersedes', 'expires_in']),
    };
    const answer = await this.#request({ method: 'POST', path: '/v1/brain/remember', body, headers: { 'idempotency-key': key }, tool: 'brain_remember' }, call, input.supersedes ? { id: input.supersedes } : undefined);
    const data = answer.body as { id?: unknown; duplicate?: unknown; created_at?: unknown } | undefined;
    const id = typeof data?.id === 'number' ? String(data.id) : data?.id;
    if (typeof id !== 'string' || id === '') throw this.#deps.client.failed(`answered brain_remember without the new memory's id (${answer.status}).`, { status: answer.status, reason: 'no id' });
    const created = typeof data?.created_at === 'string' && !Number.isNaN(Date.parse(data.created_at)) ? Date.parse(data.created_at) : Date.now();
    // A replayed Idempotency-Key: the memory was stored by an earlier attempt (or call).
    const duplicate = answer.headers.get('idempotent-replayed') === 'true' || data?.duplicate === true;
    const memory = newMemory({ ...input, id }, agent, created);
    return { memory, duplicate, queued: false };
  }

  async #list(params: Record<string, string>, call: BrainCall): Promise<OpenBrainMemory[]> {
    const answer = await this.#request({ method: 'GET', path: `/v1/brain/list?${new URLSearchParams(params)}`, tool: 'brain_list' }, call);
    return this.#memories(answer);
  }

  /** The request; a 2xx answer, or the 4xx as this gateway's code. `missing` names what a 404 means. */
  async #request(request: RemoteRequest, call: BrainCall, missing?: { id: string }): Promise<RemoteAnswer> {
    const { client, error } = this.#deps;
    const answer = await client.request(request, call.signal);
    const { status, message } = answer;
    if (status >= 200 && status <= 299) return answer;
    if (status === 404 && missing) throw error('BRAIN_MEMORY_NOT_FOUND', `The remote brain: no memory has the id ${missing.id} (${message}). Find ids with brain_recall or brain_list.`, missing);
    if (status === 413) throw error('BRAIN_CONTENT_TOO_LARGE', `The remote brain: ${message}. Split it into several memories.`, { status });
    if (status === 400 || status === 422) throw error('INVALID_ARGUMENTS', `The remote brain: ${message}`, { status });
    const hint = status === 404 ? ' Is remote.url the OpenBrain API\'s base address (https://api.lthn.sh, without /v1/brain)?' : '';
    throw client.failed(`answered ${status}: ${message}.${hint}`, { status, reason: message });
  }

  /** `{memories: [...]}` as this gateway's memories; those of an unknown type are left out and logged. */
  #memories({ status, body }: RemoteAnswer): OpenBrainMemory[] {
    const list = (body as { memories?: unknown } | undefined)?.memories;
    const now = new Date().toISOString();
    try {
      if (!Array.isArray(list)) throw new ShapeProblem('memories is not a list');
      const memories = list.map((raw, i) => memoryFromOpenBrain(raw, `memories[${i}]`, now));
      const known = memories.filter((m): m is OpenBrainMemory => m !== undefined);
      if (known.length < memories.length) this.#deps.log.warn({ skipped: memories.length - known.length }, 'OpenBrain answered memories of a type this gateway does not know; they were left out');
      return known;
    } catch (err) {
      if (!(err instanceof ShapeProblem)) throw err;
      throw this.#deps.client.failed(`answered something that is not an OpenBrain answer (${err.message}).`, { status, reason: err.message });
    }
  }
}

/** The keys of `source` that are set. */
function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
