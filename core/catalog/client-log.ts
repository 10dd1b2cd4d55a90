import type { LoggingLevel, RequestId } from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type { McpLogLevel } from '../contract/plugin-types.js';
import type { ClientLink } from './client-link.js';
import { checkLogMessage } from './log-message.js';

/** MCP (RFC 5424) levels on pino's, for calls with no client to log to. */
const PINO_LEVEL = {
  debug: 'debug',
  info: 'info',
  notice: 'info',
  warning: 'warn',
  error: 'error',
  critical: 'fatal',
  alert: 'fatal',
  emergency: 'fatal',
} as const satisfies Record<LoggingLevel, string>;

/**
 * `call.logToClient(...)`: a `notifications/message` related to the call's request, so that
 * over /mcp it travels on the call's POST stream, ahead of the result. Without a session
 * (REST, the CLI) the message goes to the gateway log, so it is not lost.
 */
export function logToClient(
  target: { link: ClientLink; requestId: RequestId } | undefined,
  plugin: string,
  log: () => Logger,
  level: McpLogLevel,
  data: unknown,
  options: { readonly logger?: string } = {},
): boolean {
  const invalid = (why: string) => new GatewayError('NOTIFICATION_INVALID', `Plugin "${plugin}": call.logToClient: ${why}`);
  const { logger } = checkLogMessage(invalid, plugin, level, data, options);
  if (!target) {
    log()[PINO_LEVEL[level]]({ logger, data }, 'log message for a caller without an MCP session');
    return false;
  }
  return target.link.log({ level, logger, data }, target.requestId);
}
