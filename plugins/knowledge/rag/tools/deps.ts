import type { OptionalVectors } from '@mcp-gateway/core';
import type { KnowledgeConfig } from '../../config.js';
import type { KnowledgeContext } from '../../declaration.js';
import type { RagIndex } from '../rag-index.js';
import type { RagStore } from '../rag-store.js';

/** What every rag_ tool group gets. */
export interface RagToolDeps {
  readonly ctx: KnowledgeContext;
  readonly rows: RagStore;
  readonly index: RagIndex;
  readonly vectors: OptionalVectors;
  readonly config: KnowledgeConfig['rag'];
}
