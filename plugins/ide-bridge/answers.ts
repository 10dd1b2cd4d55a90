// The backend's answers to the gateway's requests, kept in the cache; an accepted dashboard
// update is announced here, whoever sent it (a tool now, or the queue after a reconnect).
import type { Logger } from '@mcp-gateway/core';
import type { IdeCache } from './cache.js';
import type { AnswerListener } from './exchange.js';
import { feedAnswer, readState, ShapeRefused } from './feed.js';
import type { Publisher } from './publish.js';

export function answerKeeper(cache: IdeCache, publisher: Publisher, log: Logger): AnswerListener {
  return (request, data) => {
    try {
      const dropped = feedAnswer(cache, request, data);
      if (dropped > 0) log.warn({ type: request.type, dropped, droppedRecords: cache.droppedRecords }, 'ide-bridge: records of an answer are unreadable; dropped, the others kept');
    } catch (err) {
      if (!(err instanceof ShapeRefused)) throw err;
      log.warn({ type: request.type, reason: err.message }, 'ide-bridge: an answer of the backend has an unusable shape; not kept');
      return;
    }
    if (request.type === 'dashboard.update') {
      const { state, updatedAt } = readState(data);
      publisher.dashboardUpdated({ state, updatedAt, replace: request.data.replace === true });
    }
  };
}
