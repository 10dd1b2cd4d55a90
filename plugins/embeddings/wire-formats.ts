import type { ProviderSettings } from './settings.js';

/** What a provider's answer held: the vectors in input order, or what is wrong with it. */
export type Parsed = { readonly vectors: readonly unknown[] } | { readonly problem: string };

/** How one provider API asks for embeddings and answers. */
export interface WireFormat {
  body(texts: readonly string[], settings: ProviderSettings): Record<string, unknown>;
  /** The answer's vectors, one per input and in input order; each still to be checked. */
  parse(answer: unknown, count: number): Parsed;
}

/** `POST <url>/embeddings`: OpenAI, and what Ollama's /v1, LM Studio, vLLM and llama.cpp serve. */
const openai: WireFormat = {
  body: (texts, settings) => ({ model: settings.model, input: texts, ...(settings.sendDimensions ? { dimensions: settings.dimensions } : {}) }),
  parse(answer, count) {
    const data = (answer as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return { problem: 'no data array' };
    if (data.length !== count) return { problem: `${data.length} embeddings for ${count} inputs` };
    // The API gives each item its input's index; servers need not keep the order.
    const vectors = new Array<unknown>(count);
    for (const item of data as Array<{ index?: unknown; embedding?: unknown } | null>) {
      const index = item?.index;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || index in vectors) {
        return { problem: `an item with index ${JSON.stringify(index)}` };
      }
      vectors[index] = item!.embedding;
    }
    return { vectors };
  },
};

/** Ollama's native `POST <url>/api/embed` (not the older /api/embeddings, one text per request). */
const ollama: WireFormat = {
  body: (texts, settings) => ({ model: settings.model, input: texts, ...(settings.sendDimensions ? { dimensions: settings.dimensions } : {}) }),
  parse(answer, count) {
    const embeddings = (answer as { embeddings?: unknown } | null)?.embeddings;
    if (!Array.isArray(embeddings)) return { problem: 'no embeddings array' };
    if (embeddings.length !== count) return { problem: `${embeddings.length} embeddings for ${count} inputs` };
    return { vectors: embeddings };
  },
};

export const wireFormats: Readonly<Record<ProviderSettings['provider'], WireFormat>> = { openai, ollama };
