// What a memory is, the same for every back end: the local store, a remote gateway, OpenBrain.

/** The kinds of memory an agent keeps (Core MCP's list). */
export const MEMORY_TYPES = [
  'fact',
  'decision',
  'observation',
  'plan',
  'convention',
  'architecture',
  'research',
  'documentation',
  'service',
  'bug',
  'pattern',
  'context',
  'procedure',
] as const;

export type MemoryType = (typeof MEMORY_TYPES)[number];

/**
 * One memory as every tool answers it. Times are ISO 8601 strings (UTC). A forgotten memory
 * is a tombstone: its content and tags are erased, `forgotten_at` and `forget_reason` say
 * when and why, so that a gateway that copied it can drop its copy too.
 */
export interface Memory {
  readonly id: string;
  /** Who wrote it: the caller's identity on the gateway that stored it. */
  readonly agent_id: string;
  readonly type: MemoryType;
  readonly content: string;
  readonly tags: readonly string[];
  readonly org: string | null;
  readonly project: string | null;
  /** 0 to 1: how sure the writer was. */
  readonly confidence: number;
  /** The memory this one replaces, if any. */
  readonly supersedes_id: string | null;
  /** The newest memory that replaces this one, if any: recall leaves it out unless asked. */
  readonly superseded_by: string | null;
  readonly expires_at: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly forgotten_at: string | null;
  readonly forget_reason: string | null;
}

/** A memory as recall ranks it: `score` in [0, 1], higher is closer to the query. */
export interface RecalledMemory extends Memory {
  readonly score: number;
}

/** What `brain_remember` asks for (validated by its schema, the content's size by the tool). */
export interface RememberInput {
  readonly content: string;
  readonly type: MemoryType;
  readonly tags: readonly string[];
  readonly org?: string;
  readonly project?: string;
  readonly confidence: number;
  readonly supersedes?: string;
  /** Seconds from now; absent: never expires. */
  readonly expires_in?: number;
  /**
   * The new memory's id, chosen by the caller (a UUID). It is also the idempotency key: the
   * same id again with the same content is answered with the stored memory (`duplicate`),
   * never a second copy; with other content it is BRAIN_ID_CONFLICT.
   */
  readonly id?: string;
}

export interface RememberResult {
  readonly memory: Memory;
  /** The id was known with this content already: nothing new was stored. */
  readonly duplicate: boolean;
  /** The remote was down: the memory waits in this gateway's queue and is sent when it is back. */
  readonly queued: boolean;
}

/** Filters shared by recall and list. `type` and `types` together mean either. */
export interface MemoryFilter {
  readonly org?: string;
  readonly project?: string;
  readonly types?: readonly MemoryType[];
  readonly agent_id?: string;
  readonly min_confidence?: number;
  readonly tags?: readonly string[];
  readonly include_superseded?: boolean;
  readonly include_expired?: boolean;
}

export type RecallMode = 'auto' | 'hybrid' | 'lexical' | 'vector';

export interface RecallQuery extends MemoryFilter {
  readonly query: string;
  readonly top_k: number;
  readonly mode: RecallMode;
}

export interface RecallResult {
  readonly memories: readonly RecalledMemory[];
  /** How the memories were ranked. */
  readonly mode: 'hybrid' | 'lexical' | 'vector';
  /** Set when the answer is not the whole brain's: the remote was down, only what this gateway wrote was searched. */
  readonly partial?: string;
  /** Set when the ranking asked for was not possible (no vectors) and why. */
  readonly degraded?: string;
}

export interface ListQuery extends MemoryFilter {
  readonly limit: number;
  /** `newest` first (the default) or `oldest` first, by creation time. */
  readonly order?: 'newest' | 'oldest';
  /** From a previous page's `next_cursor`. */
  readonly cursor?: string;
  /** Tombstones too (a replica learns what to drop). */
  readonly include_forgotten?: boolean;
}

export interface ListResult {
  readonly memories: readonly Memory[];
  /** Present when more memories follow: pass it as `cursor`. */
  readonly next_cursor?: string;
  readonly partial?: string;
}

export interface ForgetResult {
  readonly id: string;
  /** False when it had been forgotten already (forget is idempotent). */
  readonly forgotten: boolean;
  readonly forgotten_at: string;
}

/** What an import did: new memories, ones already there, tombstones applied. */
export interface ImportSummary {
  readonly imported: number;
  readonly skipped: number;
  readonly forgotten: number;
}

/** A memory as `brain_remember` makes it from its input, `at` ms since the epoch (times in ISO 8601 UTC). */
export function newMemory(input: RememberInput & { readonly id: string }, agent: string, at: number): Memory {
  const when = new Date(at).toISOString();
  return {
    id: input.id,
    agent_id: agent,
    type: input.type,
    content: input.content,
    tags: [...input.tags],
    org: input.org ?? null,
    project: input.project ?? null,
    confidence: input.confidence,
    supersedes_id: input.supersedes ?? null,
    superseded_by: null,
    expires_at: input.expires_in === undefined ? null : new Date(at + input.expires_in * 1000).toISOString(),
    created_at: when,
    updated_at: when,
    forgotten_at: null,
    forget_reason: null,
  };
}
