// The caps on what a node stores from its caller. The configured ones (graph.maxContentChars,
// maxEvidence, maxSnippetChars) are checked here rather than in the input schema, which holds
// only the config's largest values: a caller over them gets KNOWLEDGE_NODE_TOO_LARGE with the
// field, the cap and its length, and the message names the setting that raises it. The fixed
// ones (summary, tags, paths, grep_pattern) are the schema's.
import { firstCodePoints } from '@mcp-gateway/core';
import type { KnowledgeConfig } from '../config.js';
import type { RaiseError } from '../declaration.js';

export type NodeLimits = Pick<KnowledgeConfig['graph'], 'maxContentChars' | 'maxEvidence' | 'maxSnippetChars'>;

/** An agent (the caller's identity) stored with a node at most: what knowledge_list's agent filter takes. */
export const MAX_AGENT_CHARS = 256;

/** The fields of knowledge_add or knowledge_update that have configured caps. */
interface SizedFields {
  readonly content?: string;
  readonly evidence?: ReadonlyArray<{ readonly snippet?: string }>;
}

/** Refuses (KNOWLEDGE_NODE_TOO_LARGE) content, evidence or a snippet over this gateway's caps. */
export function checkNodeSize(fields: SizedFields, limits: NodeLimits, raise: RaiseError): void {
  const over = (field: string, length: number, limit: number, setting: string, unit = 'characters') => {
    if (length <= limit) return;
    throw raise('KNOWLEDGE_NODE_TOO_LARGE', `${field} has ${length} ${unit}; at most ${limit} (plugins.knowledge.config.graph.${setting}). Split the node, or cite the file as evidence instead of copying it.`, {
      field,
      limit,
      length,
    });
  };
  if (fields.content !== undefined) over('content', characters(fields.content), limits.maxContentChars, 'maxContentChars');
  if (fields.evidence !== undefined) {
    over('evidence', fields.evidence.length, limits.maxEvidence, 'maxEvidence', 'items');
    fields.evidence.forEach((item, i) => {
      if (item.snippet !== undefined) over(`evidence[${i}].snippet`, characters(item.snippet), limits.maxSnippetChars, 'maxSnippetChars');
    });
  }
}

/** Characters as JSON Schema's maxLength counts them: code points, not UTF-16 units. */
function characters(text: string): number {
  // Without surrogate pairs (most texts) the two are the same.
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The agent id stored with a node or edge: the caller's identity, cut to MAX_AGENT_CHARS (a client names itself, with a name of any length). */
export function agentOf(identity: string | undefined): string | null {
  return identity === undefined ? null : firstCodePoints(identity, MAX_AGENT_CHARS);
}
