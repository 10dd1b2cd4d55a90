// The one interface every back end implements: the tools, the CLI and the offline queue talk
// to a Brain and never know which one it is.
import type {
  ForgetResult,
  ImportSummary,
  ListQuery,
  ListResult,
  Memory,
  RecallQuery,
  RecallResult,
  RememberInput,
  RememberResult,
} from './model.js';

/** Who acts and how long they may take: the caller's identity and the call's signal. */
export interface BrainCall {
  /** The acting agent: the caller's identity on this gateway. */
  readonly agent: string;
  readonly signal?: AbortSignal;
}

/** Which back end answers, for status and tool results. */
export type BackendKind = 'local' | 'remote' | 'openbrain';

export interface Brain {
  readonly kind: BackendKind;
  /**
   * Stores a memory. Throws BRAIN_MEMORY_NOT_FOUND (supersedes names no live memory),
   * BRAIN_ID_CONFLICT, and for remote back ends BREAKER_OPEN / BRAIN_REMOTE_* codes.
   */
  remember(input: RememberInput, call: BrainCall): Promise<RememberResult>;
  recall(query: RecallQuery, call: BrainCall): Promise<RecallResult>;
  /** Tombstones a memory. Throws BRAIN_MEMORY_NOT_FOUND for an id never stored. */
  forget(id: string, reason: string | undefined, call: BrainCall): Promise<ForgetResult>;
  list(query: ListQuery, call: BrainCall): Promise<ListResult>;
  /**
   * Stores memories as they were exported (ids, agents and times kept); an id already present
   * is skipped, a tombstone forgets a live copy. At most IMPORT_BATCH per call.
   */
  import(memories: readonly Memory[], call: BrainCall): Promise<ImportSummary>;
  /** Every memory and tombstone, oldest first: what `brain export` writes. */
  export(call: BrainCall): AsyncIterable<Memory>;
}

/** Memories one import call takes at most (brain_import's maxItems). */
export const IMPORT_BATCH = 500;
