import type { JsonSchema } from './schema.js';

const MiB = 1024 * 1024;

const listener = (extra: JsonSchema): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  default: {},
  properties: {
    enabled: { type: 'boolean', default: true },
    maxConnections: { type: 'integer', minimum: 1, default: 64 },
    maxMessageBytes: { type: 'integer', minimum: 1024, default: 10 * MiB },
    ...extra,
  },
});

/** The schema of gateway.config.yaml. Every key has a default, so an empty file is valid. */
export const gatewayConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    dataDir: { type: 'string', minLength: 1, default: '.gateway' },
    workspace: { type: 'string', minLength: 1 },
    logLevel: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' },
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
      },
    },
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
          properties: { maxMessageBytes: { type: 'integer', minimum: 1024, default: 10 * MiB } },
        },
        tcp: listener({
          host: { type: 'string', minLength: 1, default: '127.0.0.1' },
          port: { type: 'integer', minimum: 0, maximum: 65535, default: 9100 },
        }),
        unix: listener({ path: { type: 'string', minLength: 1 } }),
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
        },
      },
    },
  },
};
