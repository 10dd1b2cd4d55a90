// Schema parts the rag_ tools share.

/** A count in a result. */
export const count = { type: 'integer', minimum: 0 } as const;

export const collectionName = { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,63}$' } as const;

export const collectionArg = { ...collectionName, default: 'default' } as const;

export const sourcePath = {
  type: 'string',
  minLength: 1,
  maxLength: 4096,
  description: 'Path relative to the workspace root.',
} as const;

export const globs = (description?: string) => ({ type: 'array', items: { type: 'string', minLength: 1, maxLength: 512 }, maxItems: 64, ...(description ? { description } : {}) }) as const;

export const chunkShape = {
  type: 'object',
  additionalProperties: false,
  required: ['content', 'source', 'section', 'chunk_index'],
  properties: {
    content: { type: 'string' },
    source: { type: 'string' },
    section: { type: 'string', description: 'Heading path ("Guide > Install") for Markdown, "lines 12-48" for code and text.' },
    chunk_index: { type: 'integer', minimum: 0 },
    score: { type: 'number', minimum: 0, maximum: 1 },
  },
} as const;
