import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import type { GatewayError } from '../contract/errors.js';
import type { McpLogLevel } from '../contract/plugin-types.js';

const LEVELS = new Set<string>(LoggingLevelSchema.options);

/**
 * Checks what a plugin asks to send as an MCP log message (`ctx.notify.log`,
 * `call.logToClient`) and returns its `{level, logger, data}`; `invalid` makes the
 * NOTIFICATION_INVALID error that names the caller. The data must survive JSON, since that is
 * how it travels.
 */
export function checkLogMessage(
  invalid: (why: string) => GatewayError,
  plugin: string,
  level: McpLogLevel,
  data: unknown,
  options: { readonly logger?: string },
): { level: McpLogLevel; logger: string; data: unknown } {
  if (!LEVELS.has(level)) throw invalid(`log level ${JSON.stringify(level)} is not one of ${LoggingLevelSchema.options.join(', ')}.`);
  const logger = options.logger ?? plugin;
  if (typeof logger !== 'string') throw invalid('options.logger must be a string.');
  checkJsonData(invalid, data);
  return { level, logger, data };
}

/** Refuses data that JSON cannot carry (a cycle, a BigInt, undefined, a function). */
export function checkJsonData(invalid: (why: string) => GatewayError, data: unknown): void {
  let text: string | undefined;
  try {
    text = JSON.stringify(data);
  } catch (err) {
    throw invalid(`the data is not JSON (${(err as Error).message}).`);
  }
  if (text === undefined) throw invalid('the data is not JSON (undefined, a function or a symbol); send null for nothing.');
}
