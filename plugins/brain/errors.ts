import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const brainErrors = {
  BRAIN_CONTENT_TOO_LARGE: {
    status: 413,
    mcp: 'result',
    description: "The memory's content is longer than plugins.brain.config.maxContentBytes (details.field, details.limit, details.length, in bytes): split it into several memories.",
  },
  BRAIN_MEMORY_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'No memory has this id (never stored, or for supersedes: forgotten). Find ids with brain_recall or brain_list.',
  },
  BRAIN_ID_CONFLICT: {
    status: 409,
    mcp: 'result',
    description: 'A memory with this id exists with other content: choose a new id (a fresh UUID), or leave id out.',
  },
  BRAIN_REMOTE_REFUSED: {
    status: 502,
    mcp: 'result',
    description:
      "The remote brain refused this gateway's key (401: missing or wrong, 403: its scopes do not allow the brain tools; details.status): fix remote.apiKeyEnv or the key's scopes on the remote.",
  },
  BRAIN_REMOTE_FAILED: {
    status: 502,
    mcp: 'result',
    description: 'The remote brain could not be reached after the retries, or answered something that is not a brain answer (details.status, details.reason).',
  },
  BRAIN_QUEUE_FULL: {
    status: 503,
    mcp: 'result',
    description: 'The remote is down and the offline queue holds remote.queueLimit memories already: try again when the remote is back.',
  },
} as const satisfies Record<string, ErrorSpec>;

export type BrainErrorCode = keyof typeof brainErrors;
