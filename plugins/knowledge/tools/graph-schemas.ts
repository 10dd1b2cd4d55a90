// JSON Schemas shared by the knowledge_ tools: one source for inputs, outputs and the OpenAPI document.
import { closedObject } from '@mcp-gateway/core';
import { configSchema } from '../config.js';
import { AGENT_RELATIONS, NODE_TYPES, RELATIONS } from '../graph/model.js';
import type { NodeLimits } from '../graph/node-limits.js';

// Arguments carry prose only where the name and the schema leave the model guessing: every
// session pays for tools/list before its first call. Results keep theirs for OpenAPI readers.
export const nodeIdSchema = { type: 'string', pattern: '^n-[0-9a-f]{12}$' } as const;
export const nodeTypeArg = { enum: NODE_TYPES } as const;
export const nodeTypeSchema = { ...nodeTypeArg, description: 'What kind of knowledge: feature, decision, pattern, constraint, dependency, risk or note.' } as const;
export const agentRelationSchema = { enum: AGENT_RELATIONS, description: 'relates_to goes both ways; the others from → to.' } as const;
const tagsSchema = { type: 'array', items: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.:/-]{0,63}$' }, uniqueItems: true, maxItems: 32 } as const;
const line = { type: 'integer', minimum: 1, maximum: 10_000_000 } as const;

/**
 * The largest values the config allows: the input schemas' bounds. This gateway's own caps are
 * checked by checkNodeSize (KNOWLEDGE_NODE_TOO_LARGE) and named in the descriptions, so the caller
 * reads them in tools/list and the OpenAPI document.
 */
const CONFIG_MAXIMA = configSchema.properties.graph.properties;

const evidenceArgProperties = {
  path: { type: 'string', minLength: 1, maxLength: 4096 },
  start_line: line,
  end_line: { ...line, description: 'Default: start_line.' },
  snippet: { type: 'string', maxLength: CONFIG_MAXIMA.maxSnippetChars.maximum },
  grep_pattern: { type: 'string', minLength: 1, maxLength: 1000, description: 'Literal, not a regex; weaker than a snippet.' },
} as const;

/** An evidence item as knowledge_add and knowledge_update take it, within the config's largest cap. */
const evidenceArgSchema = { type: 'object', additionalProperties: false, required: ['path'], properties: evidenceArgProperties } as const;

/** An evidence item as nodes return it: the argument's bounds, with the fuller prose OpenAPI readers keep. */
export const evidenceItemSchema = {
  ...evidenceArgSchema,
  properties: {
    path: { ...evidenceArgProperties.path, description: 'A file in the workspace (relative to its root).' },
    start_line: { ...line, description: 'First cited line (1-based).' },
    end_line: { ...line, description: 'Last cited line; default start_line.' },
    snippet: { ...evidenceArgProperties.snippet, description: 'The cited text as it is in the file; spacing and blank lines do not matter.' },
    grep_pattern: { ...evidenceArgProperties.grep_pattern, description: 'Literal text that must occur in the file when the snippet does not (a fallback, worth less).' },
  },
} as const;

/** The fields of a node as knowledge_add and knowledge_update take them, with this gateway's limits in the descriptions. */
export function nodeFields(limits: NodeLimits) {
  return {
    type: nodeTypeArg,
    summary: { type: 'string', minLength: 1, maxLength: 500, description: 'One line.' },
    content: {
      type: 'string',
      minLength: 1,
      maxLength: CONFIG_MAXIMA.maxContentChars.maximum,
      description: `Markdown, at most ${limits.maxContentChars} characters.`,
    },
    tags: tagsSchema,
    confidence: { type: 'number', minimum: 0, maximum: 1 },
    evidence: {
      type: 'array',
      items: evidenceArgSchema,
      maxItems: CONFIG_MAXIMA.maxEvidence.maximum,
      description: `At most ${limits.maxEvidence} items; snippets at most ${limits.maxSnippetChars} characters.`,
    },
  } as const;
}

const itemResultSchema = closedObject(
  {
    index: { type: 'integer' },
    path: { type: 'string' },
    status: { enum: ['verified', 'partial', 'failed'] },
    file_exists: { type: 'boolean' },
    snippet_found: { type: 'boolean' },
    lines_match: { type: ['boolean', 'null'] },
    similarity: { type: 'number' },
    file_hash: { type: 'string' },
    reason: { type: 'string' },
    code: { type: 'string', description: "Core's code when the workspace's rules kept the file from being read (HARD_LINK_REFUSED, OUTSIDE_WORKSPACE, FILE_TOO_LARGE...)." },
    actual: { type: 'string' },
  },
  ['file_hash', 'reason', 'code', 'actual'],
);

export const verificationStatusSchema = { enum: ['verified', 'partial', 'unverified', 'stale'] } as const;

export const nodeSchema = closedObject({
  id: { type: 'string' },
  type: nodeTypeSchema,
  summary: { type: 'string' },
  content: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' } },
  confidence: { type: 'number' },
  verification_status: verificationStatusSchema,
  evidence: { type: 'array', items: evidenceItemSchema },
  verification: {
    oneOf: [{ type: 'null' }, closedObject({ status: { type: 'string' }, adjustment: { type: 'number' }, items: { type: 'array', items: itemResultSchema }, verified_at: { type: 'string' } })],
  },
  agent: { type: ['string', 'null'] },
  created_at: { type: 'string' },
  updated_at: { type: 'string' },
  version: { type: 'integer', minimum: 0, description: 'One more with each change of the node.' },
});

/** A node without its content and verification details: lists and search results. */
export const nodeBriefProperties = {
  id: { type: 'string' },
  type: nodeTypeSchema,
  summary: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' } },
  confidence: { type: 'number' },
  verification_status: verificationStatusSchema,
  evidence: { type: 'array', items: closedObject({ path: { type: 'string' }, lines: { type: 'string' } }, ['lines']) },
  updated_at: { type: 'string' },
} as const;
export const nodeBriefSchema = closedObject(nodeBriefProperties);

export const edgeProperties = {
  from: { type: 'string' },
  to: { type: 'string' },
  relation: { enum: RELATIONS },
  confidence: { type: 'number' },
  properties: { type: 'object' },
} as const;
export const edgeSchema = closedObject(edgeProperties);

export const writeOutcomeSchema = closedObject({
  node: nodeSchema,
  vectors: {
    ...closedObject({ stored: { type: 'boolean' }, reason: { type: 'string' } }, ['reason']),
    description: 'Whether the node got its vector now; if not, it is found by its words until vectors work again.',
  },
  links: {
    ...closedObject({ shares_evidence: { type: 'integer' }, semantically_similar: { type: 'integer' } }),
    description: 'Automatic edges made to other nodes.',
  },
});
