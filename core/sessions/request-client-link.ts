import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  LOG_LEVEL_META_KEY,
  type ClientCapabilities,
  type CreateMessageResult,
  type ElicitResult,
  type ListRootsResult,
  type LoggingLevel,
} from '@modelcontextprotocol/server';
import type { ClientLink, LinkRequestOptions } from '../catalog/client-link.js';
import type { Logger } from '../lib/logger.js';
import type { InputRound, QuestionMethod, RequestContext } from './input-round.js';
import { isBelow } from './log-levels.js';


/**
 * The ClientLink of one 2026-07-28 request, made from its `_meta`: the capabilities are the
 * ones the request declares. The revision has no requests from server to client: a question
 * goes into the request's input round (input-round.ts, made on the first question by `round`),
 * which answers it from the retry or ends the call to ask. (completion/complete, where the
 * revision allows no InputRequiredResult, gets no link at all.) Log messages go on the
 * request's own response stream, and only when its `_meta` names a level at or below theirs:
 * without one the revision says to send none. Everything is read when used: most calls use
 * none of it.
 */
export function requestClientLink(ctx: RequestContext, log: Logger, round: () => InputRound): ClientLink {
  const ask =
    <T>(method: QuestionMethod) =>
    (params: object, options: LinkRequestOptions): Promise<T> =>
      round().ask(method, params as Record<string, unknown>, options) as Promise<T>;
  return {
    capabilities: () => envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined,
    clientName: () => clientNameOf(ctx),
    createMessage: ask<CreateMessageResult>('sampling/createMessage'),
    elicitInput: ask<ElicitResult>('elicitation/create'),
    listRoots: ask<ListRootsResult>('roots/list'),
    log(params) {
      const threshold = envelopeOf(ctx)?.[LOG_LEVEL_META_KEY] as LoggingLevel | undefined;
      if (threshold === undefined || isBelow(params.level, threshold)) return false;
      ctx.mcpReq.notify({ method: 'notifications/message', params }).catch((err: unknown) => log.debug({ err }, 'log message not sent'));
      return true;
    },
  };
}

/** The client a 2026-07-28 request names in its `_meta`, if it names one. */
export function clientNameOf(ctx: RequestContext | undefined): string | undefined {
  const name = (envelopeOf(ctx)?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : undefined;
}

/** The SDK lifts the revision's reserved `_meta` keys (protocol version, client, log level) into `envelope`. */
function envelopeOf(ctx: RequestContext | undefined): Record<string, unknown> | undefined {
  return ctx?.mcpReq.envelope as Record<string, unknown> | undefined;
}
