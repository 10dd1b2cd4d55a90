// What the ide_ tools share: the plugin's parts, and the one way every read tool answers.
import { isGatewayError } from '@mcp-gateway/core';
import type { Bridge } from '../bridge.js';
import type { IdeCache } from '../cache.js';
import type { IdeContext } from '../declaration.js';
import { inIdeTerms, type Exchange, type Request } from '../exchange.js';
import type { Outbox, Submitted } from '../outbox.js';
import type { Publisher } from '../publish.js';

export interface IdeDeps {
  ctx: IdeContext;
  cache: IdeCache;
  bridge: Bridge;
  exchange: Exchange;
  outbox: Outbox;
  publisher: Publisher;
}

/**
 * Makes the cache fresh for one read: when `isFresh` says the cache lacks the data (or holds
 * it from an earlier connection), asks the backend and waits up to requestTimeoutMs. Resolves
 * `true` (stale) when the cache still lacks it then: the tool answers what it holds, marked
 * stale. IDE_NOT_FOUND, the backend's own word, reaches the caller; so does IDE_BACKEND_ERROR
 * when `holds` says the cache has nothing to answer with (an "unknown" would hide the refusal).
 */
export async function readThrough(deps: IdeDeps, isFresh: () => boolean, request: Request, signal: AbortSignal, holds: () => boolean = () => true): Promise<boolean> {
  if (isFresh()) return false;
  if (deps.bridge.connected) {
    try {
      await deps.exchange.request(request, signal);
    } catch (err) {
      if (isGatewayError(err) && err.code === 'IDE_NOT_FOUND') throw err;
      if (isGatewayError(err) && err.code === 'IDE_BACKEND_ERROR') {
        deps.ctx.log.warn({ type: request.type, code: err.code, message: err.message }, 'ide-bridge: the backend refused a read; answering from the cache');
        if (!holds()) throw err;
      } else {
        deps.ctx.log.debug({ type: request.type, err }, 'ide-bridge: the backend did not answer; answering from the cache');
      }
    }
  }
  return !isFresh();
}

/** Sends (or queues) a message that changes something on the backend, in this plugin's error terms. */
export async function submit(deps: IdeDeps, request: Request, signal: AbortSignal): Promise<Submitted> {
  try {
    return await deps.outbox.submit(request, signal);
  } catch (err) {
    throw inIdeTerms(err, deps.ctx.error, deps.ctx.config.requestTimeoutMs);
  }
}
