import type { ConfigType } from '@mcp-gateway/core';

const weight = (value: number, description: string) => ({ type: 'number', minimum: 0, maximum: 1, default: value, description }) as const;

/** The plugin's section of gateway.config.yaml (see README.md); `BrainConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    backend: {
      enum: ['local', 'remote'],
      default: 'local',
      description: "Where memories live. local: this gateway's shared store (SQLite or PostgreSQL). remote: another server, named under remote (a team's shared brain).",
    },
    maxContentBytes: {
      type: 'integer',
      minimum: 1,
      // The search index takes at most 1 MiB of text per memory, tags included.
      maximum: 512 * 1024,
      default: 64 * 1024,
      description: "A memory's content at most, in UTF-8 bytes (BRAIN_CONTENT_TOO_LARGE beyond), up to 512 KiB.",
    },
    recall: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How brain_recall ranks memories on the local back end.',
      properties: {
        lexicalWeight: weight(0.5, 'Weight of the full-text score in hybrid ranking.'),
        vectorWeight: weight(0.5, 'Weight of the vector similarity in hybrid ranking.'),
      },
    },
    remote: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'The server memories live on with backend: remote.',
      properties: {
        url: {
          type: 'string',
          pattern: '^https?://',
          description:
            "Base URL of the server: another mcp-gateway's HTTP address (http://brain.team.internal:9101), or an OpenBrain API (https://api.lthn.sh). Plain http only to a loopback address unless allowHttp is set.",
        },
        protocol: {
          enum: ['gateway', 'openbrain'],
          default: 'gateway',
          description: "gateway: the other gateway's REST bridge (POST /tools/brain_*); openbrain: the OpenBrain HTTP API (/v1/brain/*).",
        },
        apiKeyEnv: {
          type: 'string',
          pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
          default: 'MCP_GATEWAY_BRAIN_KEY',
          description: 'The environment variable holding the API key for the remote, sent as Authorization: Bearer.',
        },
        allowHttp: { type: 'boolean', default: false, description: 'Allow plain http to a host that is not loopback (the key and memories travel unencrypted).' },
        agentId: {
          type: 'string',
          minLength: 1,
          maxLength: 128,
          description: "openbrain only: the agent_id sent with every memory. Default: the caller's identity.",
        },
        timeoutMs: { type: 'integer', minimum: 100, maximum: 600_000, default: 10_000, description: 'One request slower than this is aborted and counts against the remote.' },
        retries: { type: 'integer', minimum: 0, maximum: 10, default: 2, description: 'Attempts after the first, on timeouts, lost connections, 408, 429 and 5xx only.' },
        retryBaseMs: { type: 'integer', minimum: 1, maximum: 60_000, default: 200, description: 'First backoff (full jitter, doubling each attempt, Retry-After honoured up to retryMaxMs).' },
        retryMaxMs: { type: 'integer', minimum: 1, maximum: 300_000, default: 5000, description: 'Longest backoff between two attempts.' },
        maxResponseBytes: { type: 'integer', minimum: 1024, maximum: 256 * 1024 * 1024, default: 8 * 1024 * 1024, description: 'An answer larger than this is cut off and refused (BRAIN_REMOTE_FAILED).' },
        queueWhenDown: {
          type: 'boolean',
          default: false,
          description: 'Keep remembers made while the remote is down in a local queue (dataDir) and send them, in order and once each, when it is back.',
        },
        queueLimit: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1000, description: 'Memories the queue holds at most (BRAIN_QUEUE_FULL beyond).' },
        queueRetryMs: { type: 'integer', minimum: 100, maximum: 3_600_000, default: 5000, description: 'How often a non-empty queue tries the remote again.' },
        keepWritten: {
          type: 'integer',
          minimum: 0,
          maximum: 1_000_000,
          default: 10_000,
          description: "Memories this gateway wrote kept locally, newest first, so that recall and list can answer (marked partial) while the remote is down. 0: none.",
        },
        breaker: {
          type: 'object',
          additionalProperties: false,
          default: {},
          description: "Overrides of the gateway's breakers defaults for the remote's breaker (brain:remote).",
          properties: {
            errorThresholdPercentage: { type: 'number', minimum: 1, maximum: 100 },
            volumeThreshold: { type: 'integer', minimum: 0 },
            resetTimeoutMs: { type: 'integer', minimum: 1 },
            rollingCountTimeoutMs: { type: 'integer', minimum: 100 },
          },
        },
      },
    },
  },
} as const;

export type BrainConfig = ConfigType<typeof configSchema>;
export type RemoteConfig = BrainConfig['remote'];
