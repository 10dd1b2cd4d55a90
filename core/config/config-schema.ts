import type { JsonSchema } from '../lib/schema.js';
import { storageConfigSchema } from '../storage/store-config.js';

/** Profile names: they appear in URLs (/mcp/<profile>). */
const PROFILE_PATTERN = '^[a-z][a-z0-9-]{0,31}$';

const MiB = 1024 * 1024;

/**
 * Defaults of the socket listeners' newer limits, also used when a listener is given limits
 * without them (stdio, embedders and tests that pass their own).
 */
export const socketLimitDefaults = {
  /** A reply (or other message to the client) larger than this is not sent: REPLY_TOO_LARGE. */
  maxReplyBytes: 40 * MiB,
  /** TCP with keys: a connection that has not authenticated within this long is closed. */
  authTimeoutMs: 5000,
} as const;

const listener = (extra: JsonSchema): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    enabled: { type: 'boolean', default: true },
    maxConnections: { type: 'integer', minimum: 1, default: 64 },
    maxMessageBytes: { type: 'integer', minimum: 1024, default: 10 * MiB },
    maxReplyBytes: { type: 'integer', minimum: 1024, default: socketLimitDefaults.maxReplyBytes },
    ...extra,
  },
});

const apiKeySchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'hash', 'scopes'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' },
    hash: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
    scopes: {
      type: 'array',
      minItems: 1,
      // `*`, `events`, `plugin:<name>`, `route:<name>[:<scope>]`, or a tool name with `*` wildcards.
      items: { type: 'string', pattern: '^(\\*|events|plugin:[a-z][a-z0-9-]{0,63}|route:[a-z][a-z0-9-]{0,63}(:[a-z][a-z0-9_-]{0,63})?|[a-z0-9_*]{1,64})$' },
    },
    /** Every call with this key sees this profile (core/catalog/profiles.ts). */
    profile: { type: 'string', pattern: PROFILE_PATTERN },
  },
};

/** A tool name or a glob of them (`*` matches any run of characters). */
const toolGlob: JsonSchema = { type: 'string', pattern: '^[a-z0-9_*]{1,64}$' };
const toolGlobs: JsonSchema = { type: 'array', items: toolGlob, default: [] };

/** One named tool set (core/catalog/profiles.ts). */
const profileSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    description: { type: 'string', maxLength: 500 },
    plugins: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,63}$' }, default: [] },
    tools: toolGlobs,
    exclude: toolGlobs,
    /** Tools outside the profile: refused everywhere, or found and called through tool search. */
    others: { enum: ['refuse', 'search'], default: 'refuse' },
  },
};

const httpSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    enabled: { type: 'boolean', default: true },
    host: { type: 'string', minLength: 1, default: '127.0.0.1' },
    port: { type: 'integer', minimum: 0, maximum: 65535, default: 9101 },
    bodyLimitBytes: { type: 'integer', minimum: 1024, default: 10 * MiB },
    maxConnections: { type: 'integer', minimum: 1, default: 512 },
    maxConnectionsPerAddress: { type: 'integer', minimum: 1, default: 128 },
    /** Time a client has to send a request's headers (slow-loris connections end here). */
    headersTimeoutMs: { type: 'integer', minimum: 100, default: 10_000 },
    /** Time a client has to send a whole request, body included. */
    requestTimeoutMs: { type: 'integer', minimum: 100, default: 30_000 },
    /** An idle keep-alive connection is closed after this long. */
    keepAliveTimeoutMs: { type: 'integer', minimum: 100, default: 5000 },
    /** Host header values accepted besides loopback names and the bound address. */
    allowedHosts: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
    /** Origins (scheme://host:port) accepted besides loopback origins. */
    allowedOrigins: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
    rateLimit: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        /** Requests per window per API key (or per address without keys); 0 turns it off. */
        max: { type: 'integer', minimum: 0, default: 1200 },
        timeWindowMs: { type: 'integer', minimum: 1000, default: 60_000 },
      },
    },
    mcpSessionIdleMs: { type: 'integer', minimum: 1000, default: 30 * 60_000 },
    maxMcpSessions: { type: 'integer', minimum: 1, default: 256 },
    /** MCP sessions at /mcp per API key (per client address with auth: none). */
    maxMcpSessionsPerKey: { type: 'integer', minimum: 1, default: 32 },
    events: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        /** Bytes queued for one client before it is disconnected as too slow. */
        maxQueuedBytes: { type: 'integer', minimum: 1024, default: 1 * MiB },
        pingIntervalMs: { type: 'integer', minimum: 100, default: 30_000 },
        maxClients: { type: 'integer', minimum: 1, default: 64 },
      },
    },
    /** WebSocket routes of plugins (ctx.http.websocket), all of them together. */
    pluginSockets: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        maxClients: { type: 'integer', minimum: 1, default: 256 },
        pingIntervalMs: { type: 'integer', minimum: 100, default: 30_000 },
      },
    },
  },
};

/** The schema of gateway.config.yaml. Every key has a default, so an empty file is valid. */
export const gatewayConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    dataDir: { type: 'string', minLength: 1, default: '.gateway' },
    /**
     * `key`: every network transport (HTTP, /mcp, /events, TCP) needs an API key, the owner
     * key in dataDir or one of `apiKeys`. `none`: no key anywhere (loopback only).
     */
    auth: { enum: ['key', 'none'], default: 'key' },
    apiKeys: { type: 'array', items: apiKeySchema, default: [] },
    workspace: { type: 'string', minLength: 1 },
    logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
    /** Paths tools never change: a name matches that component at any depth; with a slash, relative to the workspace. */
    protectedPaths: {
      type: 'array',
      items: { type: 'string', minLength: 1, not: { enum: ['.', '..', '/'] } },
      default: ['.git'],
    },
    /** Reads of workspace files (every plugin's, through core) refuse regular files with other hard links. */
    refuseHardLinks: { type: 'boolean', default: true },
    registries: { type: 'array', items: { type: 'string', minLength: 1 }, default: [] },
    setupTimeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
    shutdownTimeoutMs: { type: 'integer', minimum: 1, default: 10_000 },
    tools: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        timeoutMs: { type: 'integer', minimum: 1, default: 60_000 },
        audit: { type: 'boolean', default: true },
        /** Answer calls whose audit row cannot be written (disk full) instead of refusing them. */
        auditFailOpen: { type: 'boolean', default: false },
        /** Audit rows older than this are deleted at start-up; 0 keeps them all. */
        auditRetentionDays: { type: 'integer', minimum: 0, default: 30 },
        /** What tools/list carries of each tool: `lean` (types, no output prose) or `full` (core/catalog/lean-listing.ts). */
        listing: { enum: ['lean', 'full'], default: 'lean' },
        /** gateway_find_tools and gateway_call_tool (core/catalog/tool-search.ts). */
        search: { type: 'boolean', default: true },
      },
    },
    /** Where shared state lives: the embedded SQLite file, or PostgreSQL (docs/storage.md). */
    storage: storageConfigSchema,
    breakers: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        timeoutMs: { type: 'integer', minimum: 1, default: 10_000 },
        errorThresholdPercentage: { type: 'number', minimum: 1, maximum: 100, default: 50 },
        resetTimeoutMs: { type: 'integer', minimum: 1, default: 30_000 },
        volumeThreshold: { type: 'integer', minimum: 0, default: 5 },
        rollingCountTimeoutMs: { type: 'integer', minimum: 100, default: 10_000 },
      },
    },
    transports: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        stdio: {
          type: 'object',
          additionalProperties: false,
          default: {},
          properties: {
            maxMessageBytes: { type: 'integer', minimum: 1024, default: 10 * MiB },
            // The next identical start answers initialize and tools/list from it (core/mcp/stdio-early.ts).
            catalogCache: { type: 'boolean', default: true },
          },
        },
        tcp: listener({
          host: { type: 'string', minLength: 1, default: '127.0.0.1' },
          port: { type: 'integer', minimum: 0, maximum: 65535, default: 9100 },
          authTimeoutMs: { type: 'integer', minimum: 100, default: socketLimitDefaults.authTimeoutMs },
        }),
        unix: listener({ path: { type: 'string', minLength: 1 } }),
        http: httpSchema,
      },
    },
    plugins: {
      type: 'object',
      default: {},
      propertyNames: { pattern: '^[a-z][a-z0-9-]{0,63}$' },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: {
          enabled: { type: 'boolean', default: true },
          optional: { type: 'boolean' },
          config: { type: 'object', default: {} },
          /** The plugin's tools (names or globs) never to offer: they are not in the catalog at all. */
          exclude: { type: 'array', items: toolGlob },
        },
      },
    },
    /** Named tool sets; `all` (the whole catalog) always exists and may not be redefined. */
    profiles: { type: 'object', propertyNames: { pattern: PROFILE_PATTERN, not: { const: 'all' } }, additionalProperties: profileSchema, default: {} },
    /** The profile of MCP clients that name none (stdio without --profile, /mcp, TCP, the unix socket). */
    defaultProfile: { type: 'string', pattern: PROFILE_PATTERN },
  },
};
