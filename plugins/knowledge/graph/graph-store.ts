// Rows of the knowledge graph in the shared store: nodes, edges and the files nodes cite.
import { type Insertable, type PluginStore, type Selectable, sql, type Updateable } from '@mcp-gateway/core';
import type { EvidenceItem, Verification } from './evidence.js';
import { edgeKey, type KnowledgeEdge, type KnowledgeNode, type NodeType, type Relation } from './model.js';
import type { GraphTables } from './schema.js';

type NodeRow = Selectable<GraphTables['knowledge_nodes']>;
export type NewNodeRow = Insertable<GraphTables['knowledge_nodes']>;

export function nodeFromRow(row: NodeRow): KnowledgeNode {
  return {
    id: row.id,
    type: row.type as NodeType,
    summary: row.summary,
    content: row.content,
    tags: JSON.parse(row.tags) as string[],
    confidence: row.confidence,
    verification_status: row.verification_status,
    evidence: JSON.parse(row.evidence) as EvidenceItem[],
    verification: row.verification === null ? null : (JSON.parse(row.verification) as Verification),
    agent: row.agent,
    created_at: row.created_at,
    updated_at: row.updated_at,
    version: row.version,
  };
}

/** What a compare-and-set write found: done, the node gone, or changed by another writer since it was read. */
export type WriteResult = 'written' | 'gone' | 'changed';

/** A unique constraint failed: on SQLite and PostgreSQL alike. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export interface ListFilter {
  readonly type?: string | undefined;
  readonly status?: string | undefined;
  readonly agent?: string | undefined;
  readonly tag?: string | undefined;
}

export class GraphStore {
  readonly #store: PluginStore<GraphTables>;

  constructor(store: PluginStore<GraphTables>) {
    this.#store = store;
  }

  /** Inserts the node unless one with its content exists: answers the id that holds that content. */
  async insertNode(row: NewNodeRow, files: ReadonlyArray<{ path: string; hash: string | null }>): Promise<{ inserted: boolean; id: string }> {
    return this.#store.transaction(async (trx) => {
      const result = await trx.insertInto('knowledge_nodes').values(row).onConflict((oc) => oc.column('content_key').doNothing()).executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
        const existing = await trx.selectFrom('knowledge_nodes').select('id').where('content_key', '=', row.content_key).executeTakeFirstOrThrow();
        return { inserted: false, id: existing.id };
      }
      if (files.length > 0) await trx.insertInto('knowledge_node_files').values(files.map((f) => ({ node_id: row.id, path: f.path, file_hash: f.hash }))).execute();
      return { inserted: true, id: row.id };
    });
  }

  /**
   * Changes a node's row (and its cited files) if it is still at `version`, moving it to the
   * next. Throws the driver's unique violation when the new content is another node's.
   */
  async updateNode(id: string, version: number, patch: Updateable<GraphTables['knowledge_nodes']>, files?: ReadonlyArray<{ path: string; hash: string | null }>): Promise<WriteResult> {
    return this.#store.transaction(async (trx) => {
      const result = await trx.updateTable('knowledge_nodes').set({ ...patch, version: version + 1 }).where('id', '=', id).where('version', '=', version).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) {
        const exists = await trx.selectFrom('knowledge_nodes').select('id').where('id', '=', id).executeTakeFirst();
        return exists ? 'changed' : 'gone';
      }
      if (files) {
        await trx.deleteFrom('knowledge_node_files').where('node_id', '=', id).execute();
        if (files.length > 0) await trx.insertInto('knowledge_node_files').values(files.map((f) => ({ node_id: id, path: f.path, file_hash: f.hash }))).execute();
      }
      return 'written';
    });
  }

  /** The current version of each node that exists. */
  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#store.db.selectFrom('knowledge_nodes').select(['id', 'version']).where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  async nodeIdByContentKey(key: string): Promise<string | undefined> {
    return (await this.#store.db.selectFrom('knowledge_nodes').select('id').where('content_key', '=', key).executeTakeFirst())?.id;
  }

  /** The confidence the agent gave the node, before verification adjusted it. */
  async baseConfidence(id: string): Promise<number | undefined> {
    return (await this.#store.db.selectFrom('knowledge_nodes').select('base_confidence').where('id', '=', id).executeTakeFirst())?.base_confidence;
  }

  async getNode(id: string): Promise<KnowledgeNode | undefined> {
    const row = await this.#store.db.selectFrom('knowledge_nodes').selectAll().where('id', '=', id).executeTakeFirst();
    return row && nodeFromRow(row);
  }

  async getNodes(ids: readonly string[]): Promise<Map<string, KnowledgeNode>> {
    if (ids.length === 0) return new Map();
    const rows = await this.#store.db.selectFrom('knowledge_nodes').selectAll().where('id', 'in', [...ids]).execute();
    return new Map(rows.map((r) => [r.id, nodeFromRow(r)]));
  }

  /** Deletes a node with its edges and file rows; false when it did not exist. */
  async deleteNode(id: string): Promise<{ deleted: boolean; edges: number }> {
    return this.#store.transaction(async (trx) => {
      // The row locked first (PostgreSQL): a link being made to it waits, then finds it gone.
      await trx.selectFrom('knowledge_nodes').select('id').where('id', '=', id).forUpdate().execute();
      const edges = await trx.deleteFrom('knowledge_edges').where((eb) => eb.or([eb('from_node', '=', id), eb('to_node', '=', id)])).executeTakeFirst();
      await trx.deleteFrom('knowledge_node_files').where('node_id', '=', id).execute();
      const node = await trx.deleteFrom('knowledge_nodes').where('id', '=', id).executeTakeFirst();
      return { deleted: Number(node.numDeletedRows) > 0, edges: Number(edges.numDeletedRows) };
    });
  }

  async list(filter: ListFilter, limit: number, offset: number): Promise<{ nodes: KnowledgeNode[]; total: number }> {
    let query = this.#store.db.selectFrom('knowledge_nodes');
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.status) query = query.where('verification_status', '=', filter.status);
    if (filter.agent) query = query.where('agent', '=', filter.agent);
    // Tags are a JSON array of lower-case strings: the quoted tag is one whole element.
    if (filter.tag) query = query.where(sql<boolean>`tags like ${`%${JSON.stringify(filter.tag).replace(/[%_\\]/g, '\\$&')}%`} escape '\\'`);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('updated_at', 'desc').orderBy('id').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { nodes: rows.map(nodeFromRow), total: Number(count.n) };
  }

  /** How many nodes have each value of `column` (their type, or their verification status). */
  async countBy(column: 'type' | 'verification_status'): Promise<Map<string, number>> {
    const rows = await this.#store.db.selectFrom('knowledge_nodes').select([column, (eb) => eb.fn.countAll<number>().as('n')]).groupBy(column).execute();
    return new Map(rows.map((r) => [String(r[column]), Number(r.n)]));
  }

  /** Nodes whose vector in `space` is still to be made (not those the provider refused), oldest first. */
  async nodesNeedingVectors(space: string, limit: number): Promise<KnowledgeNode[]> {
    const rows = await this.#store.db
      .selectFrom('knowledge_nodes')
      .selectAll()
      .where((eb) => eb.or([eb('vector_space', 'is', null), eb.and([eb('vector_space', '!=', space), eb('vector_space', '!=', `!${space}`)])]))
      .orderBy('created_at')
      .limit(limit)
      .execute();
    return rows.map(nodeFromRow);
  }

  /** How many nodes still wait for a vector of `space` (not those the provider refused). */
  async countWithoutVectors(space: string): Promise<number> {
    const row = await this.#store.db
      .selectFrom('knowledge_nodes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) => eb.or([eb('vector_space', 'is', null), eb.and([eb('vector_space', '!=', space), eb('vector_space', '!=', `!${space}`)])]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Records which vector the index holds for each node, unless the node changed since (its version moved). */
  async setVectorSpace(nodes: ReadonlyArray<{ id: string; version: number }>, space: string | null): Promise<void> {
    for (const node of nodes) {
      await this.#store.db.updateTable('knowledge_nodes').set({ vector_space: space }).where('id', '=', node.id).where('version', '=', node.version).execute();
    }
  }

  async allNodes(batch: number, after: string): Promise<KnowledgeNode[]> {
    const rows = await this.#store.db.selectFrom('knowledge_nodes').selectAll().where('id', '>', after).orderBy('id').limit(batch).execute();
    return rows.map(nodeFromRow);
  }

  async countNodes(): Promise<number> {
    const row = await this.#store.db.selectFrom('knowledge_nodes').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Other nodes citing any of `paths`, with the paths each shares. */
  async nodesCiting(paths: readonly string[], except?: string): Promise<Map<string, string[]>> {
    const shared = new Map<string, string[]>();
    if (paths.length === 0) return shared;
    let query = this.#store.db.selectFrom('knowledge_node_files').select(['node_id', 'path']).where('path', 'in', [...paths]);
    if (except) query = query.where('node_id', '!=', except);
    for (const row of await query.execute()) shared.set(row.node_id, [...(shared.get(row.node_id) ?? []), row.path]);
    return shared;
  }

  /** Every cited file with the hashes it had when each node citing it was verified. */
  async citedFiles(): Promise<Array<{ node_id: string; path: string; file_hash: string | null }>> {
    return this.#store.db.selectFrom('knowledge_node_files').select(['node_id', 'path', 'file_hash']).execute();
  }

  /**
   * Adds the edge, or updates its confidence and properties when the pair already has it, as
   * stored (a symmetric relation's pair in id order). Undefined when either node is gone: both
   * rows are locked first, so a node being forgotten at the same time never keeps an edge.
   */
  async upsertEdge(edge: KnowledgeEdge, agent: string | null): Promise<KnowledgeEdge | undefined> {
    const { from, to } = edgeKey(edge.from, edge.to, edge.relation);
    return this.#store.transaction(async (trx) => {
      const nodes = await trx.selectFrom('knowledge_nodes').select('id').where('id', 'in', [from, to]).orderBy('id').forUpdate().execute();
      if (nodes.length < 2) return undefined;
      await trx
        .insertInto('knowledge_edges')
        .values({ from_node: from, to_node: to, relation: edge.relation, confidence: edge.confidence, properties: JSON.stringify(edge.properties), agent, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.columns(['from_node', 'to_node', 'relation']).doUpdateSet({ confidence: edge.confidence, properties: JSON.stringify(edge.properties) }))
        .execute();
      return { ...edge, from, to };
    });
  }

  /** Removes the edges between two nodes (of one relation, or all); how many went. */
  async removeEdges(a: string, b: string, relation?: Relation): Promise<number> {
    let query = this.#store.db.deleteFrom('knowledge_edges').where((eb) =>
      eb.or([eb.and([eb('from_node', '=', a), eb('to_node', '=', b)]), eb.and([eb('from_node', '=', b), eb('to_node', '=', a)])]),
    );
    if (relation) query = query.where('relation', '=', relation);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  /** Removes a node's edges of the given relations (its automatic links, before they are made again). */
  async removeEdgesOf(id: string, relations: readonly Relation[]): Promise<void> {
    await this.#store.db
      .deleteFrom('knowledge_edges')
      .where((eb) => eb.or([eb('from_node', '=', id), eb('to_node', '=', id)]))
      .where('relation', 'in', [...relations])
      .execute();
  }

  /** One page of a node's edges, strongest first (then by id, so that pages do not overlap), and how many it has. */
  async edgesPage(id: string, limit: number, offset: number): Promise<{ edges: KnowledgeEdge[]; total: number }> {
    const query = this.#store.db.selectFrom('knowledge_edges').where((eb) => eb.or([eb('from_node', '=', id), eb('to_node', '=', id)]));
    const [rows, count] = await Promise.all([
      limit === 0 ? [] : query.selectAll().orderBy('confidence', 'desc').orderBy('id').limit(limit).offset(offset).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { edges: rows.map(edgeFromRow), total: Number(count.n) };
  }

  /** The edges touching any of `ids` with at least `minConfidence`. */
  async edgesOf(ids: readonly string[], minConfidence = 0): Promise<KnowledgeEdge[]> {
    if (ids.length === 0) return [];
    const rows = await this.#store.db
      .selectFrom('knowledge_edges')
      .selectAll()
      .where((eb) => eb.or([eb('from_node', 'in', [...ids]), eb('to_node', 'in', [...ids])]))
      .where('confidence', '>=', minConfidence)
      .orderBy('confidence', 'desc')
      .execute();
    return rows.map(edgeFromRow);
  }
}

function edgeFromRow(r: { from_node: string; to_node: string; relation: string; confidence: number; properties: string }): KnowledgeEdge {
  return { from: r.from_node, to: r.to_node, relation: r.relation as Relation, confidence: r.confidence, properties: JSON.parse(r.properties) as Record<string, unknown> };
}
