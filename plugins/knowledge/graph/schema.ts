import type { Generated, StoreMigration } from '@mcp-gateway/core';

/** The knowledge graph's tables in the shared store (SQLite or PostgreSQL). */
export interface GraphTables {
  knowledge_nodes: {
    id: string;
    type: string;
    summary: string;
    content: string;
    /** JSON array of strings. */
    tags: string;
    /** The confidence the agent gave; `confidence` is it adjusted by the last verification. */
    base_confidence: number;
    confidence: number;
    /** JSON array of evidence items as cited. */
    evidence: string;
    verification_status: string;
    /** JSON of the last verification (per-item results), null before any. */
    verification: string | null;
    /** sha256 of the normalised content: two nodes never say the same thing. */
    content_key: string;
    agent: string | null;
    created_at: string;
    updated_at: string;
    /**
     * The vector space of the vector the search index holds for this node; null: none yet;
     * `!<space>`: the provider refused this node's text (tried again when it changes).
     */
    vector_space: string | null;
    /** One more with each change: writes compare and set it, so none is lost to another. */
    version: Generated<number>;
  };
  knowledge_edges: {
    id: Generated<number>;
    from_node: string;
    to_node: string;
    relation: string;
    confidence: number;
    /** JSON object: what made an automatic edge (shared files, similarity). */
    properties: string;
    agent: string | null;
    created_at: string;
  };
  /** The files a node cites, with their hash when last verified: "which nodes did this change touch?" */
  knowledge_node_files: {
    node_id: string;
    path: string;
    file_hash: string | null;
  };
}

export const graphMigrations: StoreMigration[] = [
  {
    name: 'graph',
    async up(db, dialect) {
      await db.schema
        .createTable('knowledge_nodes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('base_confidence', 'double precision', (c) => c.notNull())
        .addColumn('confidence', 'double precision', (c) => c.notNull())
        .addColumn('evidence', 'text', (c) => c.notNull())
        .addColumn('verification_status', 'text', (c) => c.notNull())
        .addColumn('verification', 'text')
        .addColumn('content_key', 'text', (c) => c.notNull().unique())
        .addColumn('agent', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('vector_space', 'text')
        .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('knowledge_nodes_type').on('knowledge_nodes').columns(['type', 'updated_at']).execute();
      await db.schema.createIndex('knowledge_nodes_status').on('knowledge_nodes').column('verification_status').execute();
      await db.schema
        .createTable('knowledge_edges')
        .addColumn('id', 'integer', (c) => (dialect === 'postgres' ? c.primaryKey().generatedAlwaysAsIdentity() : c.primaryKey()))
        .addColumn('from_node', 'text', (c) => c.notNull())
        .addColumn('to_node', 'text', (c) => c.notNull())
        .addColumn('relation', 'text', (c) => c.notNull())
        .addColumn('confidence', 'double precision', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('agent', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('knowledge_edges_unique', ['from_node', 'to_node', 'relation'])
        .execute();
      await db.schema.createIndex('knowledge_edges_to').on('knowledge_edges').column('to_node').execute();
      await db.schema
        .createTable('knowledge_node_files')
        .addColumn('node_id', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('file_hash', 'text')
        .addPrimaryKeyConstraint('knowledge_node_files_pk', ['node_id', 'path'])
        .execute();
      await db.schema.createIndex('knowledge_node_files_path').on('knowledge_node_files').column('path').execute();
    },
  },
];
