import type { ConfigType } from '@mcp-gateway/core';

const patterns = { type: 'array', items: { type: 'string', minLength: 1, maxLength: 256 }, default: [] } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' }, default: {} } as const;

/** One server: stdio (`command`) or Streamable HTTP (`url`); the checks in index.ts refuse both or neither. */
export const serverSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: {
      type: 'string',
      pattern: '^[a-z][a-z0-9_-]{0,31}$',
      description: 'Names the server in status, logs and its breaker `upstream:<name>`; the default tool prefix.',
    },
    command: { type: 'string', minLength: 1, description: 'A stdio server: the program to spawn (looked up on PATH).' },
    args: { type: 'array', items: { type: 'string' }, default: [] },
    env: { ...stringMap, description: 'Added to a small inherited environment (HOME, PATH, SHELL, TERM, USER, LOGNAME).' },
    cwd: { type: 'string', minLength: 1, description: 'Relative to the workspace; default: the workspace.' },
    roots: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      maxItems: 64,
      description:
        'Folders (inside the workspace) the gateway names when the server asks roots/list. Absent: the gateway does not offer roots, so a server keeps the folders its own arguments give it.',
    },
    url: { type: 'string', pattern: '^https?://', description: 'A Streamable HTTP server: its MCP endpoint.' },
    headers: { ...stringMap, description: 'Sent with every request (tokens: write ${VAR} and set it in the environment).' },
    prefix: {
      type: 'string',
      pattern: '^[a-z0-9_]{0,32}$',
      description: "Put before every tool and prompt name of this server; default `<name>_` (dashes as underscores).",
    },
    include: { ...patterns, description: "Glob patterns of the server's own tool names to offer; empty: all." },
    exclude: { ...patterns, description: "Glob patterns of the server's own tool names never to offer; checked after include." },
    timeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 3_600_000,
      default: 60_000,
      description: "A call (or read, or prompt) to this server longer than this is cancelled there and answered BREAKER_TIMEOUT.",
    },
    maxMessageBytes: {
      type: 'integer',
      minimum: 65_536,
      maximum: 1_073_741_824,
      default: 10_485_760,
      description:
        'The largest message read from this server (a stdio line, an HTTP answer body, one SSE event); a larger one fails the call with UPSTREAM_MESSAGE_TOO_LARGE, read no further (a stdio server is restarted).',
    },
    protocol: {
      enum: ['auto', '2025-11-25', '2026-07-28'],
      default: 'auto',
      description:
        'The MCP revision to speak: auto asks server/discover first and falls back to initialize (2025-11-25) when the server does not know it; a revision speaks that one only.',
    },
    optional: { type: 'boolean', default: false, description: 'Start the gateway even when this server cannot be reached.' },
    enabled: { type: 'boolean', default: true },
  },
} as const;

/** The plugin's section of gateway.config.yaml (see README.md); `UpstreamConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    servers: { type: 'array', items: serverSchema, default: [], maxItems: 256 },
    whenDown: {
      enum: ['keep', 'withdraw'],
      default: 'keep',
      description: "A server that is down: keep its tools listed (calls answer UPSTREAM_UNAVAILABLE at once), or withdraw them until it is back.",
    },
    connectTimeoutMs: {
      type: 'integer',
      minimum: 100,
      maximum: 120_000,
      default: 20_000,
      description: 'How long a server has to start and answer initialize (npx may download it first).',
    },
    restartInitialDelayMs: { type: 'integer', minimum: 10, maximum: 60_000, default: 500, description: 'First wait before a restart or reconnect; doubles each time.' },
    restartMaxDelayMs: { type: 'integer', minimum: 100, maximum: 600_000, default: 30_000, description: 'The longest wait between restarts.' },
    stderrLines: { type: 'integer', minimum: 0, maximum: 10_000, default: 200, description: "Lines of each stdio server's stderr kept for status and logs." },
    maxResources: {
      type: 'integer',
      minimum: 0,
      maximum: 100_000,
      default: 1000,
      description: 'Resources listed per server (pages are followed up to this); 0 proxies no resources.',
    },
  },
} as const;

export type UpstreamConfig = ConfigType<typeof configSchema>;
export type ServerConfig = UpstreamConfig['servers'][number];
