import type { Server } from '@modelcontextprotocol/server';
import type { Logger } from '../lib/logger.js';
import type { ClientLink } from '../catalog/client-link.js';
import type { SessionInfo } from './sessions.js';
import { isBelow } from './log-levels.js';

/**
 * The ClientLink of one MCP session, made once when the session opens so that a tool call
 * costs nothing more than carrying it. Requests go through the session's SDK Server, which
 * correlates the client's answer, validates it and sends `notifications/cancelled` when the
 * call's signal fires; `relatedRequestId` puts them on the call's own stream (over /mcp, the
 * POST stream of the tools/call, which the client is reading until the result arrives).
 */
export function sessionClientLink(server: Server, session: SessionInfo, log: Logger): ClientLink {
  return {
    capabilities: () => server.getClientCapabilities(),
    clientName: () => server.getClientVersion()?.name,
    createMessage: (params, options) => server.createMessage(params, options),
    elicitInput: (params, options) => server.elicitInput(params, options),
    listRoots: (params, options) => server.listRoots(params, options),
    log(params, relatedRequestId) {
      if (isBelow(params.level, session.logLevel)) return false;
      server.notification({ method: 'notifications/message', params }, { relatedRequestId }).catch((err: unknown) => {
        log.debug({ err, session: session.id }, 'log message not sent');
      });
      return true;
    },
  };
}
