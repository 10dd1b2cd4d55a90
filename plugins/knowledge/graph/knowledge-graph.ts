// What the knowledge tools do, apart from their schemas: add, change, link, forget and
// re-verify nodes, keeping the rows, the search index and the automatic edges in step.
import { randomBytes } from 'node:crypto';
import type { PluginEvents, Workspace } from '../../../core/index.js';
import type { KnowledgeConfig } from '../config.js';
import type { RaiseError } from '../errors.js';
import { relinkAutomatically, type AutoLinks } from './auto-links.js';
import { adjustedConfidence, hashFile, normalise, sha256, verifyEvidence, type EvidenceItem, type ItemResult, type Verification } from './evidence.js';
import type { GraphStore, NewNodeRow } from './graph-store.js';
import type { KnowledgeNode, NodeType, Relation } from './model.js';
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
    const node = (await graph.getNode(row.id))!;
    let vectors: VectorsNote;
    try {
      vectors = await index.put([node], signal);
    } catch (err) {
      // Vectors of the wrong length (or a cancelled call): the node goes with them.
      await this.#remove(node.id);
      throw err;
    }
    const links = await this.#relink(node, signal);
    this.#announce('added', node);
    return { node, vectors, links };
  }

  async update(id: string, patch: Partial<NodeInput>, signal?: AbortSignal): Promise<WriteOutcome> {
    const { graph, index, error } = this.#deps;
    const old = await this.get(id);
    const next = {
      type: patch.type ?? old.type,
      summary: patch.summary ?? old.summary,
      content: patch.content ?? old.content,
      tags: patch.tags ?? old.tags,
      evidence: patch.evidence ?? old.evidence,
    };
    const key = contentKey(next.content);
    if (patch.content !== undefined) await this.#refuseDuplicate(key, id);
    const reverify = patch.evidence !== undefined || patch.content !== undefined;
    const verification = reverify ? await this.#verify(next.evidence) : old.verification;
    const base = patch.confidence ?? (await graph.baseConfidence(id)) ?? old.confidence;
    const changed = await graph.updateNode(
      id,
      {
        type: next.type,
        summary: next.summary,
        content: next.content,
        tags: JSON.stringify(next.tags),
        base_confidence: base,
        confidence: adjustedConfidence(base, verification?.adjustment ?? 0),
        evidence: JSON.stringify(next.evidence),
        verification_status: verification?.status ?? 'unverified',
        verification: verification && next.evidence.length > 0 ? JSON.stringify(verification) : null,
        content_key: key,
        updated_at: new Date().toISOString(),
      },
      reverify && verification ? fileHashes(verification) : undefined,
    );
    if (!changed) throw this.#notFound(id);
    const node = (await graph.getNode(id))!;
    const vectors = await index.put([node], signal);
    const links = await this.#relink(node, signal);
    if (old.type !== node.type) this.#deps.typeChanged(old.type);
    this.#announce('updated', node);
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

  async link(from: string, to: string, relation: Relation, confidence: number, agent: string | null): Promise<void> {
    if (from === to) throw this.#deps.error('KNOWLEDGE_LINK_INVALID', `A node cannot be linked to itself (${from}).`);
    await Promise.all([this.get(from), this.get(to)]);
    await this.#deps.graph.upsertEdge({ from, to, relation, confidence, properties: {} }, agent);
  }

  /**
   * Checks evidence again: of the nodes given, of those citing files that changed since they
   * were last checked, or of every node. Evidence that no longer holds makes a node `stale`.
   */
  async reverify(target: { ids?: readonly string[]; changed?: boolean }): Promise<{ changed_files?: string[]; results: VerifyOutcome[] }> {
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
      const node = await graph.getNode(id);
      if (node && node.evidence.length > 0) results.push(await this.#reverifyNode(node));
    }
    return { ...(changedFiles ? { changed_files: changedFiles } : {}), results };
  }

  async #reverifyNode(node: KnowledgeNode): Promise<VerifyOutcome> {
    const { graph } = this.#deps;
    const verification = await verifyEvidence(node.evidence, this.#deps.workspace, this.#deps.config.graph);
    // Evidence that held once and holds no more: the claim is stale, not deleted.
    const after = verification.status === 'rejected' ? 'stale' : verification.status;
    const base = (await graph.baseConfidence(node.id)) ?? node.confidence;
    const confidence = adjustedConfidence(base, verification.adjustment);
    await graph.updateNode(node.id, { verification_status: after, verification: JSON.stringify(verification), confidence, updated_at: new Date().toISOString() }, fileHashes(verification));
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

  async #relink(node: KnowledgeNode, signal?: AbortSignal): Promise<AutoLinks> {
    const { graph, index, config } = this.#deps;
    return relinkAutomatically(node, { graph, index, similarLinkThreshold: config.graph.similarLinkThreshold, ...(signal ? { signal } : {}) });
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
