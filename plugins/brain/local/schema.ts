import type { StoreMigration } from '@mcp-gateway/core';

/** The local back end's tables in the shared store (SQLite or PostgreSQL). */
export interface BrainTables {
  brain_memories: {
    id: string;
    agent_id: string;
    type: string;
    /** Erased ('') when forgotten. */
    content: string;
    /** JSON array of strings, as given; brain_memory_tags holds them again for filtering. */
    tags: string;
    org: string | null;
    project: string | null;
    confidence: number;
    supersedes_id: string | null;
    superseded_by: string | null;
    /** ISO 8601 UTC with milliseconds, so that text order is time order on both engines. */
    expires_at: string | null;
    created_at: string;
    updated_at: string;
    forgotten_at: string | null;
    forget_reason: string | null;
    /** The vector space of the vector the search index holds; null: none yet (made later). */
    vector_space: string | null;
  };
  /** One row per tag of a live memory: the tags filter is an indexed lookup, not a scan of JSON. */
  brain_memory_tags: {
    memory_id: string;
    tag: string;
  };
}

export const migrations: StoreMigration[] = [
  {
    name: 'memories',
    async up(db) {
      await db.schema
        .createTable('brain_memories')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('org', 'text')
        .addColumn('project', 'text')
        .addColumn('confidence', 'double precision', (c) => c.notNull())
        .addColumn('supersedes_id', 'text')
        .addColumn('superseded_by', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('forgotten_at', 'text')
        .addColumn('forget_reason', 'text')
        .addColumn('vector_space', 'text')
        .execute();
      // brain_list pages newest first; export oldest first.
      await db.schema.createIndex('brain_memories_created').on('brain_memories').columns(['created_at', 'id']).execute();
      await db.schema.createIndex('brain_memories_scope').on('brain_memories').columns(['org', 'project']).execute();
      await db.schema.createIndex('brain_memories_agent').on('brain_memories').column('agent_id').execute();
      await db.schema.createIndex('brain_memories_vectors').on('brain_memories').column('vector_space').execute();
      await db.schema
        .createTable('brain_memory_tags')
        .addColumn('memory_id', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('brain_memory_tags_pk', ['memory_id', 'tag'])
        .execute();
      await db.schema.createIndex('brain_memory_tags_tag').on('brain_memory_tags').columns(['tag', 'memory_id']).execute();
    },
  },
];
