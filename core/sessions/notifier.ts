import type { LoggingLevel } from '@modelcontextprotocol/server';
import { checkJsonData, checkLogMessage } from '../catalog/log-message.js';
import { GatewayError } from '../contract/errors.js';
import type { NotifyTarget, PluginNotify } from '../contract/plugin-types.js';
import type { SessionInfo, SessionRegistry } from './sessions.js';
import { isBelow } from './log-levels.js';

/** The notification a plugin's channel message travels in (Claude Code's channel extension). */
export const CHANNEL_METHOD = 'notifications/claude/channel';

/**
 * `ctx.notify` of one plugin: MCP log messages and channel messages to one session, to the
 * sessions of one identity, or to all. Only sessions past `notifications/initialized` are
 * addressed (the protocol lets a server notify from then on). Each call returns how many
 * sessions the notification was handed to; a session that went away meanwhile is not an error.
 */
export function createNotifier(sessions: SessionRegistry, plugin: string, channels: readonly string[]): PluginNotify {
  const invalid = (why: string) => new GatewayError('NOTIFICATION_INVALID', `Plugin "${plugin}": ctx.notify: ${why}`);
  return {
    log(target, level, data, options = {}) {
      const recipients = addressed(sessions, target, invalid);
      const { logger } = checkLogMessage(invalid, plugin, level, data, options);
      let sent = 0;
      for (const session of recipients) {
        if (isBelow(level, session.logLevel)) continue;
        session.notify({ method: 'notifications/message', params: { level: level as LoggingLevel, logger, data } });
        sent++;
      }
      return sent;
    },
    channel(target, channel, data) {
      const recipients = addressed(sessions, target, invalid);
      if (!channels.includes(channel)) {
        const declared = channels.length > 0 ? channels.join(', ') : 'none';
        throw invalid(`channel ${JSON.stringify(channel)} is not declared in the plugin object's channels (declared: ${declared}).`);
      }
      checkJsonData(invalid, data);
      let sent = 0;
      for (const session of recipients) {
        session.notify({ method: CHANNEL_METHOD, params: { channel, data } });
        sent++;
      }
      return sent;
    },
  };
}

/** The ready sessions `target` names, collected before sending (a send may close a session). */
function addressed(sessions: SessionRegistry, target: NotifyTarget, invalid: (why: string) => GatewayError): SessionInfo[] {
  if (target === 'all') return [...sessions.all()].filter((s) => s.ready);
  if (typeof target === 'object' && target !== null) {
    if ('session' in target && typeof target.session === 'string') {
      const session = sessions.get(target.session);
      return session?.ready ? [session] : [];
    }
    if ('identity' in target && typeof target.identity === 'string') {
      return [...sessions.all()].filter((s) => s.ready && s.identity === target.identity);
    }
  }
  throw invalid(`the target must be 'all', { session: <id> } or { identity: <name> }, not ${JSON.stringify(target)}.`);
}
