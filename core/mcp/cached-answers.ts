import { isPlainObject } from '../lib/json.js';
import { claimsModernEra } from './era-claim.js';
import type { CatalogSnapshot } from './stdio-cache.js';

// Loaded before the rest of the gateway (stdio-early.ts): node's own modules only, no SDK.

type RequestId = string | number;

/** What to do with one message that arrived before the session exists. */
export interface EarlyOutcome {
  /** Sent to the client now. */
  readonly reply?: { jsonrpc: '2.0'; id: RequestId; result: unknown };
  /** Kept for the session, which gets it once it is connected. */
  readonly keep: boolean;
}

/**
 * Answers, from the snapshot of the last identical start, what a client asks first: the
 * `initialize` handshake (kept too, so that the session replays it and learns the client's
 * name and capabilities; its second answer is dropped), `tools/list` once initialized, and
 * `ping`. Everything else waits for the session. A request that is not well formed is left
 * to the session too, whose answer to it is the one the client would get without a snapshot.
 */
export class CachedAnswers {
  readonly #snapshot: CatalogSnapshot;
  #initializeId: RequestId | undefined;
  #answeredTools = false;

  constructor(snapshot: CatalogSnapshot) {
    this.#snapshot = snapshot;
  }

  /** The id of the `initialize` answered from the snapshot, whose session answer must not be sent. */
  get initializeId(): RequestId | undefined {
    return this.#initializeId;
  }

  /** Whether the client got the snapshot's tool list (and so must hear if the booted gateway's differs). */
  get answeredTools(): boolean {
    return this.#answeredTools;
  }

  get snapshot(): CatalogSnapshot {
    return this.#snapshot;
  }

  handle(message: unknown): EarlyOutcome {
    const request = asRequest(message);
    // The snapshot holds 2025 answers; a 2026 request waits for the session, which stamps its own.
    if (!request || claimsModernEra(message)) return KEEP;
    const { id, method, params } = request;
    if (method === 'ping') return { reply: { jsonrpc: '2.0', id, result: {} }, keep: false };
    if (method === 'initialize') {
      if (this.#initializeId !== undefined || !isInitializeParams(params)) return KEEP;
      this.#initializeId = id;
      return { reply: { jsonrpc: '2.0', id, result: this.#initializeResult(params.protocolVersion) }, keep: true };
    }
    if (method === 'tools/list' && this.#initializeId !== undefined && (params === undefined || isPlainObject(params)) && params?.cursor === undefined) {
      this.#answeredTools = true;
      return { reply: { jsonrpc: '2.0', id, result: { tools: this.#snapshot.tools } }, keep: false };
    }
    return KEEP;
  }

  /** What the SDK's Server answers, with the protocol version chosen as it chooses it. */
  #initializeResult(requested: string) {
    const { protocolVersions, capabilities, serverInfo, instructions } = this.#snapshot;
    const protocolVersion = protocolVersions.includes(requested) ? requested : protocolVersions[0];
    return { protocolVersion, capabilities, serverInfo, ...(instructions === undefined ? {} : { instructions }) };
  }
}

const KEEP: EarlyOutcome = { keep: true };

function asRequest(value: unknown): { id: RequestId; method: string; params?: Record<string, unknown> } | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== '2.0' || typeof value.method !== 'string') return undefined;
  if (typeof value.id !== 'string' && typeof value.id !== 'number') return undefined;
  if (value.params !== undefined && !isPlainObject(value.params)) return undefined;
  return value as { id: RequestId; method: string; params?: Record<string, unknown> };
}

/** The parts of `initialize`'s params the SDK requires; with anything less it answers an error. */
function isInitializeParams(params: Record<string, unknown> | undefined): params is { protocolVersion: string } {
  const info = params?.clientInfo;
  return (
    typeof params?.protocolVersion === 'string' &&
    isPlainObject(params.capabilities) &&
    isPlainObject(info) && typeof info.name === 'string' && typeof info.version === 'string'
  );
}
