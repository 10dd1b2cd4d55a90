// Finds the nodes that answer a question: full-text and vector scores weighted together, then
// one step through the graph from the best hits (after TaskWing, REFERENCE-SYSTEMS.md §5.1).
import type { SearchHit } from '@mcp-gateway/core';
import type { KnowledgeConfig } from '../config.js';
import type { SearchModeArg } from '../search-mode.js';
import { LEXICAL_SEARCH } from '../vectors.js';
import type { GraphStore } from './graph-store.js';
import type { KnowledgeNode } from './model.js';
import type { NodeIndex } from './node-index.js';

export interface RecallHit {
  readonly node: KnowledgeNode;
  readonly score: number;
  readonly lexical_score: number;
  readonly vector_similarity: number | null;
  /** Set for a node found through the graph: the hit it was reached from, and how. */
  readonly expanded_from?: { readonly id: string; readonly relation: string };
}

export interface RecallAnswer {
  readonly mode: 'hybrid' | 'lexical' | 'vector';
  /** Why vectors took no part, when they did not. */
  readonly degraded?: string;
  readonly hits: RecallHit[];
}

type RecallSettings = KnowledgeConfig['recall'];

interface Scored {
  readonly id: string;
  readonly score: number;
  readonly lexical: number;
  readonly similarity: number | null;
  readonly from?: { id: string; relation: string };
}

export async function recall(
  question: string,
  options: { limit: number; types?: readonly string[]; mode?: SearchModeArg; signal?: AbortSignal },
  deps: { index: NodeIndex; graph: GraphStore; settings: RecallSettings },
): Promise<RecallAnswer> {
  const { index, graph } = deps;
  const wanted = options.mode ?? 'auto';
  const { vector, reason } = wanted === 'lexical' ? { vector: null, reason: undefined } : await index.queryVector(question, options.signal);
  const vectorOnly = wanted === 'vector' && vector !== null;
  // Vector only is the same sum with the words weighing nothing.
  const settings = vectorOnly ? { ...deps.settings, lexicalWeight: 0, vectorWeight: 1 } : deps.settings;
  // Counted before the search: a background fill may finish in between, and an answer that said
  // nothing was missing must not come from a search that ran while something was.
  const missing = vector ? await index.missingVectors() : 0;
  const candidates = await index.search({
    ...(vectorOnly ? {} : { text: question }),
    ...(vector ? { vector } : {}),
    ...(options.types ? { types: options.types } : {}),
    limit: Math.max(options.limit * 4, 50),
  });

  // Full-text scores relative to the best of this query: bm25 (SQLite) and ts_rank (PostgreSQL)
  // differ in scale, and the weights and thresholds must mean the same on both.
  const rawLexical = (hit: SearchHit) => hit.lexicalScore ?? (vector ? 0 : hit.score);
  const bestLexical = Math.max(0, ...candidates.map(rawLexical));
  const direct: Scored[] = [];
  for (const hit of candidates) {
    const lexical = bestLexical > 0 ? rawLexical(hit) / bestLexical : 0;
    // The store's vector score is (1 + cosine) / 2; the thresholds speak of the cosine.
    const similarity = hit.vectorScore === undefined ? null : 2 * hit.vectorScore - 1;
    const fromVector = similarity !== null && similarity >= settings.minSimilarity ? similarity : 0;
    const score = vector ? settings.lexicalWeight * lexical + settings.vectorWeight * fromVector : lexical;
    if (score >= settings.minScore) direct.push({ id: hit.id, score, lexical, similarity });
  }
  direct.sort((a, b) => b.score - a.score);

  const expanded = await expand(direct, settings, graph);
  const chosen = choose(direct, expanded, options.limit, settings.expandedSlots);
  const nodes = await graph.getNodes(chosen.map((s) => s.id));
  const hits = chosen
    .filter((s) => nodes.has(s.id))
    .map(
      (s): RecallHit => ({
        node: nodes.get(s.id)!,
        score: round(s.score),
        lexical_score: round(s.lexical),
        vector_similarity: s.similarity === null ? null : round(s.similarity),
        ...(s.from ? { expanded_from: s.from } : {}),
      }),
    );
  if (!vector) return { mode: 'lexical', ...(reason ? { degraded: `${reason}: ${LEXICAL_SEARCH}` } : {}), hits };
  const partly = `${missing} node(s) have no vector yet and rank by their words only; they get one now that vectors work`;
  return { mode: vectorOnly ? 'vector' : 'hybrid', ...(missing > 0 ? { degraded: partly } : {}), hits };
}

/** Neighbours of the top hits through strong edges, each scored from its best parent. */
async function expand(direct: readonly Scored[], settings: RecallSettings, graph: GraphStore): Promise<Scored[]> {
  const top = direct.slice(0, settings.expandFrom);
  if (top.length === 0) return [];
  const found = new Set(direct.map((s) => s.id));
  const best = new Map<string, Scored>();
  const edges = await graph.edgesOf(top.map((s) => s.id), settings.minEdgeConfidence);
  for (const parent of top) {
    for (const edge of edges) {
      const neighbour = edge.from === parent.id ? edge.to : edge.to === parent.id ? edge.from : undefined;
      if (!neighbour || found.has(neighbour)) continue;
      const score = parent.score * edge.confidence * settings.expansionDecay;
      if (score < settings.minScore || (best.get(neighbour)?.score ?? 0) >= score) continue;
      best.set(neighbour, { id: neighbour, score, lexical: 0, similarity: null, from: { id: parent.id, relation: edge.relation } });
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/** The best `limit`, keeping up to `slots` places for nodes found through the graph. */
function choose(direct: readonly Scored[], expanded: readonly Scored[], limit: number, slots: number): Scored[] {
  const reserved = Math.min(slots, expanded.length, limit);
  const chosen = [...direct.slice(0, limit - reserved), ...expanded.slice(0, reserved)];
  // Places nobody claimed go to whichever is left with the better score.
  const rest = [...direct.slice(limit - reserved), ...expanded.slice(reserved)].sort((a, b) => b.score - a.score);
  chosen.push(...rest.slice(0, limit - chosen.length));
  return chosen.sort((a, b) => b.score - a.score);
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
