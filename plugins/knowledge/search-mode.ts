// The `mode` argument of knowledge_recall and rag_query: one way to ask for words, meaning or both.

/** `auto`: hybrid when vectors can be had, else lexical; the others ask for one way only. */
export type SearchModeArg = 'auto' | 'hybrid' | 'lexical' | 'vector';

export const searchModeArg = {
  enum: ['auto', 'hybrid', 'lexical', 'vector'],
  default: 'auto',
  description: 'auto: hybrid if vectors exist, else lexical. lexical: exact names, codes.',
} as const;
