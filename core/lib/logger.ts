import { pino, type Logger } from 'pino';

export type { Logger };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * The gateway's one logger. It writes to stderr (fd 2) in every mode, because stdout carries
 * JSON-RPC when the gateway runs over stdio. Writes are synchronous so that the last lines
 * before an exit are not lost.
 */
export function createLogger(level: LogLevel = 'info', destination?: NodeJS.WritableStream): Logger {
  return pino(
    { name: 'mcp-gateway', level, base: undefined },
    // `destination`: another stream than stderr (@mcp-gateway/core/testing's `logTo`).
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
