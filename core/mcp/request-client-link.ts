import { CLIENT_INFO_META_KEY, LOG_LEVEL_META_KEY, type LoggingLevel, type ServerContext } from '@modelcontextprotocol/server';
import type { ClientLink } from '../catalog/client-link.js';
import type { Logger } from '../logger.js';
import { isBelow } from './log-levels.js';

/**
 * The ClientLink of one 2026-07-28 request, made from its `_meta`. The revision has no
 * requests from server to client: sampling and elicitation come back to the client as Multi
 * Round-Trip Requests, which the gateway does not make yet, so the link declares no capability
 * and a call that asks gets CLIENT_CAPABILITY_MISSING. Log messages go on the request's own
 * response stream, and only when its `_meta` names a level at or below theirs: without one the
 * revision says to send none.
 */
export function requestClientLink(ctx: ServerContext, log: Logger): ClientLink {
  const threshold = envelopeOf(ctx)?.[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
  const clientName = clientNameOf(ctx);
  const cannotAsk = (method: string) => Promise.reject(new Error(`${method} cannot be sent in the 2026-07-28 era`));
  return {
    capabilities: () => undefined,
    clientName: () => clientName,
    createMessage: () => cannotAsk('sampling/createMessage'),
    elicitInput: () => cannotAsk('elicitation/create'),
    log(params) {
      if (threshold === undefined || isBelow(params.level, threshold)) return false;
      ctx.mcpReq.notify({ method: 'notifications/message', params }).catch((err: unknown) => log.debug({ err }, 'log message not sent'));
      return true;
    },
  };
}

/** The client a 2026-07-28 request names in its `_meta`, if it names one. */
export function clientNameOf(ctx: ServerContext | undefined): string | undefined {
  const name = (envelopeOf(ctx)?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The SDK lifts the revision's reserved `_meta` keys (protocol version, client, log level) into `envelope`. */
function envelopeOf(ctx: ServerContext | undefined): Record<string, unknown> | undefined {
  return ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
}
