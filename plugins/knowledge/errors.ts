import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const knowledgeErrors = {
  KNOWLEDGE_NODE_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'No knowledge node has this id (never added, or forgotten). Find ids with knowledge_recall or knowledge_list.',
  },
  KNOWLEDGE_DUPLICATE: {
    status: 409,
    mcp: 'result',
    description: 'A node with the same content already exists; details.id names it. Update that node instead (knowledge_update).',
  },
  KNOWLEDGE_EVIDENCE_REJECTED: {
    status: 422,
    mcp: 'result',
    description: "None of the node's evidence holds against the files; details.evidence gives the reason per item. Cite the file, lines and snippet as they are now.",
  },
  KNOWLEDGE_NODE_TOO_LARGE: {
    status: 413,
    mcp: 'result',
    description:
      "A node's content, evidence list or an evidence snippet is over plugins.knowledge.config.graph's cap (details.field, details.limit, details.length): split the node, or cite the file as evidence instead of copying it.",
  },
  KNOWLEDGE_LINK_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'The link is not allowed: a node linked to itself.',
  },
  RAG_COLLECTION_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'No document collection has this name. List them with rag_collections, or make one with rag_ingest.',
  },
  RAG_SOURCE_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'The collection holds no source with this path. rag_collections counts its sources; paths are relative to the workspace, as rag_query results give them.',
  },
  RAG_PATH_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'Nothing exists at the path given to rag_ingest. Paths are relative to the workspace root.',
  },
  RAG_NOT_INGESTIBLE: {
    status: 422,
    mcp: 'result',
    description: 'The path is not a regular file or folder (a device, FIFO or socket), or lies in /proc, /sys or /dev: it is never opened. Ingest files and folders of documents.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type KnowledgeErrorCode = keyof typeof knowledgeErrors;
