import type { ConfigType } from '@mcp-gateway/core';
import { limit as count } from './tools/schemas.js';

const millis = (value: number, minimum: number, maximum: number, description: string) => ({ type: 'integer', minimum, maximum, default: value, description }) as const;

/** The plugin's section of gateway.config.yaml (README.md explains each key); `IdeBridgeConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    url: {
      type: 'string',
      pattern: '^wss?://',
      default: 'ws://127.0.0.1:9876/ws',
      description: "The IDE backend's WebSocket URL (PROTOCOL.md is what it must speak).",
    },
    tokenEnv: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      default: 'MCP_GATEWAY_IDE_TOKEN',
      description: 'The environment variable holding the bearer token sent on the upgrade request; unset or empty: no Authorization header.',
    },
    whenDown: {
      enum: ['queue', 'fail'],
      default: 'queue',
      description: 'What chat_send, session_create and dashboard_update do while the backend is unreachable. queue: keep them (up to queueLimit) and send them in order on reconnect. fail: answer IDE_BRIDGE_UNAVAILABLE at once.',
    },
    pushesPerSecond: count(200, 100_000, 'Pushes from the backend taken in per second, all together; beyond it they are dropped and counted (droppedPushes), and reads ask the backend again.'),
    pushesPerSessionPerSecond: count(50, 100_000, 'Pushes about one chat session (their sessionId) taken in per second; beyond it they are dropped and counted, so one busy session leaves room for the others.'),
    queueLimit: count(100, 100_000, 'Messages the outbound queue holds at most while disconnected (IDE_QUEUE_FULL beyond).'),
    requestTimeoutMs: millis(5000, 50, 120_000, "How long a request waits for the backend's answer before the tool answers from the cache (stale) or IDE_BACKEND_TIMEOUT; also the breaker's timeout."),
    handshakeTimeoutMs: millis(10_000, 50, 120_000, 'How long the WebSocket upgrade may take before the attempt counts as failed.'),
    reconnect: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'Backoff between connection attempts: equal jitter (half a ceiling that doubles from baseMs to maxMs, plus a random part of the other half).',
      properties: {
        baseMs: millis(2000, 10, 600_000, 'Ceiling of the first wait (which is at least half of it).'),
        maxMs: millis(30_000, 10, 3_600_000, 'Ceiling of every later wait; a refused token (401/403) waits between half of it and all of it. The backoff starts over once a connection has stayed open this long.'),
      },
    },
    keepAliveMs: millis(15_000, 20, 600_000, 'A ping every this often; a peer that has not answered the previous ping by the next is taken for dead and the socket dropped.'),
    maxPayloadBytes: {
      type: 'integer',
      minimum: 1024,
      maximum: 64 * 1024 * 1024,
      default: 4 * 1024 * 1024,
      description: 'The largest frame accepted from the backend, in bytes; a larger one closes the connection (1009), which then reconnects with backoff.',
    },
    cache: {
      type: 'object',
      additionalProperties: false,
      default: {},
      description: 'How much of what the backend says is kept, per kind; the oldest goes first.',
      properties: {
        sessions: count(500, 100_000, 'Chat sessions.'),
        chatSessions: count(100, 10_000, 'Sessions whose chat history is kept.'),
        messagesPerSession: count(500, 100_000, 'Chat messages kept per session (and at most 512 Ki characters of them).'),
        plans: count(200, 100_000, 'Plans (one per session).'),
        builds: count(500, 100_000, 'Builds.'),
        logBuilds: count(50, 10_000, 'Builds whose log is kept.'),
        logLinesPerBuild: count(2000, 1_000_000, 'Log lines kept per build (the last ones, at most 512 Ki characters).'),
        activity: count(500, 100_000, 'Activity events.'),
      },
    },
  },
} as const;

export type IdeBridgeConfig = ConfigType<typeof configSchema>;
export type CacheLimits = IdeBridgeConfig['cache'];
