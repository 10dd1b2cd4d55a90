import type { ConfigType } from '@mcp-gateway/core';

const weight = (value: number, description: string) => ({ type: 'number', minimum: 0, maximum: 1, default: value, description }) as const;

/** The plugin's section of gateway.config.yaml (see README.md); `KnowledgeConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    recall: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How knowledge_recall ranks nodes: full text and vectors weighted together, then the graph.',
      properties: {
        lexicalWeight: weight(0.65, 'Weight of the full-text score.'),
        vectorWeight: weight(0.35, 'Weight of the vector similarity.'),
        minSimilarity: weight(0.25, 'Cosine similarity below which a vector match counts for nothing.'),
        minScore: weight(0.08, 'Combined scores below this are dropped.'),
        expandFrom: { type: 'integer', minimum: 0, maximum: 50, default: 5, description: 'How many top hits the graph expansion starts from (0: none).' },
        minEdgeConfidence: weight(0.5, 'Edges weaker than this are not followed.'),
        expansionDecay: weight(0.8, "A neighbour's score: its parent's × the edge's confidence × this."),
        expandedSlots: { type: 'integer', minimum: 0, maximum: 50, default: 2, description: 'Result places kept for nodes found through the graph.' },
      },
    },
    graph: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Limits and automatic links of the knowledge graph.',
      properties: {
        similarLinkThreshold: weight(0.55, 'Cosine similarity from which two nodes are linked semantically_similar.'),
        maxContentChars: { type: 'integer', minimum: 100, maximum: 1_000_000, default: 20_000, description: "A node's content at most." },
        maxEvidence: { type: 'integer', minimum: 1, maximum: 200, default: 20, description: 'Evidence items per node at most.' },
        maxSnippetChars: { type: 'integer', minimum: 10, maximum: 100_000, default: 4000, description: "An evidence item's snippet at most." },
        maxFileBytes: { type: 'integer', minimum: 1024, maximum: 256 * 1024 * 1024, default: 8 * 1024 * 1024, description: 'Evidence files larger than this are not read (the item fails).' },
      },
    },
    rag: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Document collections for retrieval-augmented generation (the rag_ tools).',
      properties: {
        chunkChars: { type: 'integer', minimum: 200, maximum: 100_000, default: 1500, description: "A chunk's length at most, in characters; chunks end on a line break when one is near." },
        overlapChars: { type: 'integer', minimum: 0, maximum: 50_000, default: 200, description: 'Characters a size-cut chunk repeats from the end of the one before it (kept below chunkChars / 2).' },
        maxFileBytes: { type: 'integer', minimum: 1, maximum: 1024 * 1024 * 1024, default: 4 * 1024 * 1024, description: 'Files larger than this are skipped, not read.' },
        maxFiles: { type: 'integer', minimum: 1, maximum: 10_000_000, default: 20_000, description: 'Files one rag_ingest looks at, at most; the ingest stops there and says so.' },
        maxIngestBytes: { type: 'integer', minimum: 1, maximum: 1024 ** 4, default: 1024 * 1024 * 1024, description: 'Bytes one rag_ingest reads in all, at most; the ingest stops there and says so.' },
        batchSize: { type: 'integer', minimum: 1, maximum: 1000, default: 64, description: 'Chunks embedded and indexed together, and files between two progress notifications.' },
      },
    },
  },
} as const;

export type KnowledgeConfig = ConfigType<typeof configSchema>;
