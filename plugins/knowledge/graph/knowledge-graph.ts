// What the knowledge tools do, apart from their schemas: add, change, link, forget and
// re-verify nodes, keeping the rows, the search index and the automatic edges in step.
import { randomBytes } from 'node:crypto';
import type { PluginEvents, VectorsOutcome, Workspace } from '@mcp-gateway/core';
import type { KnowledgeConfig } from '../config.js';
import type { RaiseError } from '../declaration.js';
import { relinkAutomatically, type AutoLinks } from './auto-links.js';
import { adjustedConfidence, hashFile, normalise, sha256, verifyEvidence, type EvidenceItem, type ItemResult, type Verification } from './evidence.js';
import { isUniqueViolation, type GraphStore, type NewNodeRow } from './graph-store.js';
import type { KnowledgeEdge, KnowledgeNode, NodeType, Relation } from './model.js';
import type { NodeIndex, VectorsNote } from './node-index.js';

export interface NodeInput {
  readonly type: NodeType;
  readonly summary: string;
  readonly content: string;
  readonly tags?: readonly string[];
  readonly confidence?: number;
  readonly evidence?: readonly EvidenceItem[];
}

export interface WriteOutcome {
  readonly node: KnowledgeNode;
  readonly vectors: VectorsNote;
  readonly links: AutoLinks;
}

export interface VerifyOutcome {
  readonly id: string;
  readonly summary: string;
  readonly before: string;
  readonly after: string;
  readonly confidence: number;
  /** Evidence that is not verified now (partial or failed), with why. */
  readonly problems: ReadonlyArray<Pick<ItemResult, 'index' | 'path' | 'status' | 'reason'>>;
}

interface Deps {
  readonly graph: GraphStore;
  readonly index: NodeIndex;
  readonly workspace: Workspace;
  readonly events: PluginEvents;
  readonly config: KnowledgeConfig;
  readonly error: RaiseError;
  /** Why there are no vectors now, if there are none. */
  readonly vectorsUnavailable: () => string | undefined;
  /** Tells subscribers that the resource of a node type changed. */
  readonly typeChanged: (type: string) => void;
}

/** Same words in the same order, whatever the spacing and case: the same claim. */
function contentKey(content: string): string {
  return sha256(normalise(content).toLowerCase());
}

export class KnowledgeGraph {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async add(input: NodeInput, agent: string | null, signal?: AbortSignal): Promise<WriteOutcome> {
    const { graph, index, error } = this.#deps;
    const key = contentKey(input.content);
    await this.#refuseDuplicate(key);
    const evidence = input.evidence ?? [];
    const verification = await this.#verify(evidence);
    // Vectors first: a provider answering the wrong length refuses the node before anything is stored.
    const outcome = await index.embed([input], signal);
    const now = new Date().toISOString();
    const base = input.confidence ?? 0.5;
    const row: NewNodeRow = {
      id: `n-${randomBytes(6).toString('hex')}`,
      type: input.type,
      summary: input.summary,
      content: input.content,
      tags: JSON.stringify(input.tags ?? []),
      base_confidence: base,
      confidence: adjustedConfidence(base, verification.adjustment),
      evidence: JSON.stringify(evidence),
      verification_status: verification.status,
      verification: evidence.length > 0 ? JSON.stringify(verification) : null,
      content_key: key,
      agent,
      created_at: now,
      updated_at: now,
      vector_space: null,
    };
    const inserted = await graph.insertNode(row, fileHashes(verification));
    if (!inserted.inserted) throw error('KNOWLEDGE_DUPLICATE', `Node ${inserted.id} already says this; update it with knowledge_update instead.`, { id: inserted.id });
    return this.#afterWrite((await graph.getNode(row.id))!, outcome, 'added');
  }

  /**
   * Changes a node. Read, checked, embedded and written as one compare-and-set on its version:
   * when another writer changed it meanwhile, the change is made again on top of theirs.
   */
  async update(id: string, patch: Partial<NodeInput>, signal?: AbortSignal): Promise<WriteOutcome> {
    for (let attempt = 1; ; attempt++) {
      const old = await this.get(id);
      const written = await this.#tryUpdate(old, patch, signal);
      if (written) {
        if (old.type !== written.node.type) this.#deps.typeChanged(old.type);
        return written;
      }
      if (attempt === 3) throw this.#deps.error('STORE_CONFLICT', `Node ${id} kept changing while this update was being made; try it again.`);
    }
  }

  async #tryUpdate(old: KnowledgeNode, patch: Partial<NodeInput>, signal?: AbortSignal): Promise<WriteOutcome | undefined> {
    const { graph, index } = this.#deps;
    const next = {
      type: patch.type ?? old.type,
      summary: patch.summary ?? old.summary,
      content: patch.content ?? old.content,
      tags: patch.tags ?? old.tags,
      evidence: patch.evidence ?? old.evidence,
    };
    const key = contentKey(next.content);
    if (patch.content !== undefined) await this.#refuseDuplicate(key, old.id);
    const reverify = patch.evidence !== undefined || patch.content !== undefined;
    const verification = reverify ? await this.#verify(next.evidence) : old.verification;
    // Kept as it is when the evidence was not checked again: it may say stale.
    const status = reverify ? verification!.status : old.verification_status;
    const outcome = await index.embed([next], signal);
    const base = patch.confidence ?? (await graph.baseConfidence(old.id)) ?? old.confidence;
    let result;
    try {
      result = await graph.updateNode(
        old.id,
        old.version,
        {
          type: next.type,
          summary: next.summary,
          content: next.content,
          tags: JSON.stringify(next.tags),
          base_confidence: base,
          confidence: adjustedConfidence(base, verification?.adjustment ?? 0),
          evidence: JSON.stringify(next.evidence),
          verification_status: status,
          verification: verification && next.evidence.length > 0 ? JSON.stringify(verification) : null,
          content_key: key,
          updated_at: new Date().toISOString(),
        },
        reverify && verification ? fileHashes(verification) : undefined,
      );
    } catch (err) {
      // Another write gave a node this content between the check above and this one.
      if (isUniqueViolation(err)) await this.#refuseDuplicate(key, old.id);
      throw err;
    }
    if (result === 'gone') throw this.#notFound(old.id);
    if (result === 'changed') return undefined;
    return this.#afterWrite((await graph.getNode(old.id))!, outcome, 'updated');
  }

  /** A node just written: into the index with its vectors, its automatic edges made, subscribers told. */
  async #afterWrite(node: KnowledgeNode, outcome: VectorsOutcome, what: 'added' | 'updated'): Promise<WriteOutcome> {
    const { graph, index, config } = this.#deps;
    const { vectors: made, ...vectors } = await index.put([node], { outcome });
    const links = await relinkAutomatically(node, made?.[0] ?? null, { graph, index, similarLinkThreshold: config.graph.similarLinkThreshold });
    this.#announce(what, node);
    return { node, vectors, links };
  }

  vectorsUnavailable(): string | undefined {
    return this.#deps.vectorsUnavailable();
  }

  async get(id: string): Promise<KnowledgeNode> {
    const node = await this.#deps.graph.getNode(id);
    if (!node) throw this.#notFound(id);
    return node;
  }

  async forget(id: string): Promise<{ id: string; edges_removed: number }> {
    const node = await this.get(id);
    const { edges } = await this.#remove(id);
    this.#announce('forgotten', node);
    return { id, edges_removed: edges };
  }

  async link(from: string, to: string, relation: Relation, confidence: number, agent: string | null): Promise<KnowledgeEdge> {
    if (from === to) throw this.#deps.error('KNOWLEDGE_LINK_INVALID', `A node cannot be linked to itself (${from}).`);
    const edge = await this.#deps.graph.upsertEdge({ from, to, relation, confidence, properties: {} }, agent);
    if (edge) return edge;
    // One of them is missing: say which.
    await this.get(from);
    throw this.#notFound(to);
  }

  /**
   * Checks evidence again: of the nodes given, of those citing files that changed since they
   * were last checked, or of every node. Evidence that no longer holds makes a node `stale`.
   */
  async reverify(target: { ids?: readonly string[]; changed?: boolean }, signal?: AbortSignal): Promise<{ changed_files?: string[]; results: VerifyOutcome[] }> {
    const { graph } = this.#deps;
    let ids: string[];
    let changedFiles: string[] | undefined;
    if (target.ids) {
      ids = [...new Set(target.ids)];
      for (const id of ids) await this.get(id);
    } else {
      const cited = await graph.citedFiles();
      if (target.changed) {
        const now = new Map<string, string | undefined>();
        for (const path of new Set(cited.map((c) => c.path))) now.set(path, await hashFile(this.#deps.workspace, path, this.#deps.config.graph));
        const stale = cited.filter((c) => c.file_hash !== (now.get(c.path) ?? null));
        changedFiles = [...new Set(stale.map((c) => c.path))].sort();
        ids = [...new Set(stale.map((c) => c.node_id))];
      } else {
        ids = [...new Set(cited.map((c) => c.node_id))];
      }
    }
    const results: VerifyOutcome[] = [];
    for (const id of ids) {
      signal?.throwIfAborted();
      const outcome = await this.#reverifyNode(id);
      if (outcome) results.push(outcome);
    }
    return { ...(changedFiles ? { changed_files: changedFiles } : {}), results };
  }

  /** One node checked again; written only if nobody changed it meanwhile (then it is checked again). */
  async #reverifyNode(id: string): Promise<VerifyOutcome | undefined> {
    const { graph } = this.#deps;
    for (;;) {
      const node = await graph.getNode(id);
      if (!node || node.evidence.length === 0) return undefined;
      const verification = await verifyEvidence(node.evidence, this.#deps.workspace, this.#deps.config.graph);
      // Evidence that held once and holds no more: the claim is stale, not deleted.
      const after = verification.status === 'rejected' ? 'stale' : verification.status;
      const base = (await graph.baseConfidence(node.id)) ?? node.confidence;
      const confidence = adjustedConfidence(base, verification.adjustment);
      const record = JSON.stringify({ ...verification, status: after });
      const result = await graph.updateNode(node.id, node.version, { verification_status: after, verification: record, confidence, updated_at: new Date().toISOString() }, fileHashes(verification));
      if (result === 'gone') return undefined;
      if (result === 'changed') continue;
      if (after !== node.verification_status) this.#announce('verified', { ...node, verification_status: after });
      return {
        id: node.id,
        summary: node.summary,
        before: node.verification_status,
        after,
        confidence,
        problems: verification.items.filter((i) => i.status !== 'verified').map((i) => ({ index: i.index, path: i.path, status: i.status, ...(i.reason ? { reason: i.reason } : {}) })),
      };
    }
  }

  /** Verifies evidence given with a write: none of it holding refuses the write. */
  async #verify(evidence: readonly EvidenceItem[]): Promise<Verification> {
    const verification = await verifyEvidence(evidence, this.#deps.workspace, this.#deps.config.graph);
    if (verification.status === 'rejected') {
      const reasons = verification.items.map((i) => `#${i.index} ${i.path}: ${i.reason ?? i.status}`).join('; ');
      throw this.#deps.error('KNOWLEDGE_EVIDENCE_REJECTED', `None of the evidence holds against the files: ${reasons}.`, { evidence: verification.items });
    }
    return verification;
  }

  async #refuseDuplicate(key: string, self?: string): Promise<void> {
    const existing = await this.#deps.graph.nodeIdByContentKey(key);
    if (existing && existing !== self) throw this.#deps.error('KNOWLEDGE_DUPLICATE', `Node ${existing} already says this; update it with knowledge_update instead.`, { id: existing });
  }

  async #remove(id: string): Promise<{ edges: number }> {
    const { edges } = await this.#deps.graph.deleteNode(id);
    await this.#deps.index.remove([id]);
    return { edges };
  }

  #announce(what: 'added' | 'updated' | 'forgotten' | 'verified', node: Pick<KnowledgeNode, 'id' | 'type' | 'summary' | 'verification_status'>): void {
    this.#deps.events.publish(`knowledge.node.${what}`, { id: node.id, type: node.type, summary: node.summary, status: node.verification_status });
    this.#deps.typeChanged(node.type);
  }

  #notFound(id: string) {
    return this.#deps.error('KNOWLEDGE_NODE_NOT_FOUND', `No knowledge node "${id}". Find ids with knowledge_recall or knowledge_list.`);
  }
}

/** The files a verification read, with their hashes (null when unreadable). */
function fileHashes(verification: Verification): Array<{ path: string; hash: string | null }> {
  const byPath = new Map<string, string | null>();
  for (const item of verification.items) if (!byPath.has(item.path) || item.file_hash) byPath.set(item.path, item.file_hash ?? null);
  return [...byPath].map(([path, hash]) => ({ path, hash }));
}
