// The brain of another mcp-gateway, through its REST bridge: `POST /tools/brain_*` with the
// tools' own arguments. A team's shared brain is just a gateway with the local back end.
//
// The acting agent (`call.agent`) is not sent: on the remote, the agent is its caller's
// identity, which is the name of the API key this gateway uses there.
import { randomUUID } from 'node:crypto';
import { IMPORT_BATCH, type Brain, type BrainCall } from '../brain.js';
import type { RaiseError } from '../declaration.js';
import type { ForgetResult, ImportSummary, ListQuery, ListResult, Memory, RecallQuery, RecallResult, RememberInput, RememberResult } from '../model.js';
import { forgetResult, importSummary, listResult, PASSED_CODES, recallResult, rememberResult, ShapeProblem } from './gateway-answers.js';
import type { RemoteAnswer, RemoteClient } from './http-client.js';

/** brain_list's largest page: what export asks for. */
const EXPORT_PAGE = 500;
/**
 * JSON per brain_import request at most: well under a gateway's default body limit (10 MiB,
 * transports.http.bodyLimitBytes), since 500 memories of 64 KiB would not fit in one.
 */
const IMPORT_REQUEST_BYTES = 4 * 1024 * 1024;

const FILTER_KEYS = ['org', 'project', 'types', 'agent_id', 'min_confidence', 'tags', 'include_superseded', 'include_expired'] as const;
const REMEMBER_KEYS = ['content', 'type', 'tags', 'org', 'project', 'confidence', 'supersedes', 'expires_in', 'id'] as const;
const RECALL_KEYS = ['query', 'top_k', 'mode', ...FILTER_KEYS] as const;
const LIST_KEYS = ['limit', 'order', 'cursor', 'include_forgotten', ...FILTER_KEYS] as const;

export class GatewayBrain implements Brain {
  readonly kind = 'remote' as const;
  readonly #client: RemoteClient;
  readonly #error: RaiseError;

  constructor(client: RemoteClient, error: RaiseError) {
    this.#client = client;
    this.#error = error;
  }

  remember(input: RememberInput, call: BrainCall): Promise<RememberResult> {
    // The id is the idempotency key, chosen before the first attempt: a retry after a lost
    // answer carries the same one, and the remote answers it `duplicate` instead of storing twice.
    const args = { ...argsOf(input, REMEMBER_KEYS), id: input.id ?? randomUUID() };
    return this.#call('brain_remember', args, call, rememberResult);
  }

  recall(query: RecallQuery, call: BrainCall): Promise<RecallResult> {
    return this.#call('brain_recall', argsOf(query, RECALL_KEYS), call, recallResult);
  }

  forget(id: string, reason: string | undefined, call: BrainCall): Promise<ForgetResult> {
    return this.#call('brain_forget', reason === undefined ? { id } : { id, reason }, call, forgetResult);
  }

  list(query: ListQuery, call: BrainCall): Promise<ListResult> {
    return this.#call('brain_list', argsOf(query, LIST_KEYS), call, listResult);
  }

  async import(memories: readonly Memory[], call: BrainCall): Promise<ImportSummary> {
    const total = { imported: 0, skipped: 0, forgotten: 0 };
    for (const batch of batches(memories)) {
      const summary = await this.#call('brain_import', { memories: batch }, call, importSummary);
      total.imported += summary.imported;
      total.skipped += summary.skipped;
      total.forgotten += summary.forgotten;
    }
    return total;
  }

  /** Every memory and tombstone, oldest first, a page of brain_list at a time. */
  async *export(call: BrainCall): AsyncIterable<Memory> {
    let cursor: string | undefined;
    do {
      const page = await this.list(
        { limit: EXPORT_PAGE, order: 'oldest', include_forgotten: true, include_superseded: true, include_expired: true, ...(cursor === undefined ? {} : { cursor }) },
        call,
      );
      yield* page.memories;
      cursor = page.next_cursor;
    } while (cursor !== undefined);
  }

  async #call<T>(tool: string, args: Record<string, unknown>, call: BrainCall, parse: (data: unknown) => T): Promise<T> {
    const answer = await this.#client.request({ method: 'POST', path: `/tools/${tool}`, body: args, tool }, call.signal);
    const { status, body } = answer;
    if (status < 200 || status > 299) throw this.#remoteError(tool, answer);
    const envelope = body as { success?: unknown; data?: unknown } | undefined;
    if (envelope?.success !== true || !('data' in envelope)) {
      throw this.#client.failed(`answered ${status} without a REST bridge's {"success": true, "data": …}: is remote.url another mcp-gateway's HTTP address? (For an OpenBrain API, set remote.protocol: openbrain.)`, {
        status,
        reason: 'not a REST bridge answer',
      });
    }
    try {
      return parse(envelope.data);
    } catch (err) {
      if (!(err instanceof ShapeProblem)) throw err;
      const problem = this.#client.excerpt(err.message);
      throw this.#client.failed(`answered ${tool} with something that is not its result (${problem}); is the remote gateway's brain plugin of another version?`, { status, reason: problem });
    }
  }

  /** A 4xx from the remote: the caller's mistakes keep their code, the rest is BRAIN_REMOTE_FAILED. */
  #remoteError(tool: string, { status, body, message }: RemoteAnswer): Error {
    const error = (body as { error?: { code?: unknown; details?: unknown } } | undefined)?.error;
    const code = typeof error?.code === 'string' ? error.code : undefined;
    if (code === 'UNKNOWN_TOOL') {
      return this.#client.failed(`has no ${tool} tool (404 UNKNOWN_TOOL): the brain plugin is not enabled there. Enable it on that gateway (plugins: brain: {}), with its local back end.`, {
        status,
        reason: 'UNKNOWN_TOOL',
        code,
      });
    }
    if (code !== undefined && PASSED_CODES.has(code)) {
      const details = error?.details;
      return this.#error(code as Parameters<RaiseError>[0], `The remote brain: ${message}`, details && typeof details === 'object' ? details : undefined);
    }
    const hint = status === 404 && code === undefined ? ' Is remote.url the HTTP address of another mcp-gateway (its REST bridge serves POST /tools/<name>)?' : '';
    return this.#client.failed(`answered ${status}${code ? ` ${code}` : ''}: ${message}.${hint}`, { status, reason: message, ...(code ? { code } : {}) });
  }
}

/** The keys of `source` that a tool's schema takes and that are set: the arguments sent. */
function argsOf(source: object, keys: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const key of keys) {
    const value = (source as Record<string, unknown>)[key];
    // brain_recall and brain_list refuse an empty types list (minItems 1): none means any type.
    if (value === undefined || (Array.isArray(value) && value.length === 0 && key === 'types')) continue;
    args[key] = value;
  }
  return args;
}

/** At most IMPORT_BATCH memories and about IMPORT_REQUEST_BYTES of JSON per request. */
function* batches(memories: readonly Memory[]): Generator<Memory[]> {
  let batch: Memory[] = [];
  let bytes = 0;
  for (const memory of memories) {
    const size = Buffer.byteLength(JSON.stringify(memory));
    if (batch.length > 0 && (batch.length >= IMPORT_BATCH || bytes + size > IMPORT_REQUEST_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(memory);
    bytes += size;
  }
  if (batch.length > 0) yield batch;
}
