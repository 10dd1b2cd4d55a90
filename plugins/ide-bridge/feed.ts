// What the backend says, into the cache: its pushes, and its answers to the gateway's
// requests. A record of an unusable shape is refused (the caller logs and drops it); in a list,
// only the unusable records are dropped and counted.
import type { IdeCache } from './cache.js';
import type { Request } from './exchange.js';
import { isId, readActivity, readAll, readBuild, readLines, readMessage, readOverview, readPlan, readSession, type ReadList } from './model.js';
import { isObject, type Envelope, type PushType } from './protocol.js';

/** The dashboard state travels whole; beyond this many characters of JSON it is refused rather than kept. */
export const STATE_LIMIT_CHARS = 256 * 1024;

export class ShapeRefused extends Error {}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ShapeRefused(what);
  return value;
}

/** The dashboard state of an answer or push; throws ShapeRefused for one that cannot be kept. */
export function readState(data: Record<string, unknown>): { state: Record<string, unknown>; updatedAt: string | null } {
  const state = need(isObject(data.state) ? data.state : undefined, 'state is not an object');
  if (JSON.stringify(state).length > STATE_LIMIT_CHARS) throw new ShapeRefused(`state is longer than ${STATE_LIMIT_CHARS} characters as JSON`);
  const updatedAt = typeof data.updatedAt === 'string' && !Number.isNaN(Date.parse(data.updatedAt)) ? new Date(data.updatedAt).toISOString() : null;
  return { state, updatedAt };
}

/**
 * Keeps a push and returns the data to publish: the checked record as kept, never the
 * backend's object (which may carry anything). Throws ShapeRefused for unusable data.
 */
export function feedPush(cache: IdeCache, envelope: Envelope<PushType>): Record<string, unknown> {
  const data = envelope.data ?? {};
  const sessionId = envelope.sessionId;
  switch (envelope.type) {
    case 'chat.message': {
      const message = need(readMessage(data), 'not a chat message');
      cache.addMessage(need(isId(sessionId) ? sessionId : undefined, 'chat.message without a valid sessionId'), message);
      return { ...message };
    }
    case 'session.updated': {
      const session = need(readSession(data.session), 'not a session');
      cache.putSession(session);
      return { session };
    }
    case 'plan.updated': {
      const plan = need(readPlan(need(isId(sessionId) ? sessionId : undefined, 'plan.updated without a valid sessionId'), data), 'not a plan');
      cache.putPlan(plan);
      return { status: plan.status, steps: plan.steps };
    }
    case 'build.updated': {
      const build = need(readBuild(data.build), 'not a build');
      cache.putBuild(build);
      return { build };
    }
    case 'build.log': {
      const buildId = need(isId(data.buildId) ? data.buildId : undefined, 'build.log without a valid buildId');
      const lines = need(readLines(data.lines), 'lines are not strings');
      cache.addLogLines(buildId, lines);
      return { buildId, lines };
    }
    case 'activity': {
      const event = need(readActivity(data), 'not an activity event');
      cache.addActivity(event);
      return { ...event };
    }
    case 'dashboard.state': {
      let state;
      try {
        state = readState(data);
      } catch (err) {
        cache.unconfirmDashboard();
        throw err;
      }
      cache.putDashboard(state);
      return { ...state };
    }
    case 'dashboard.overview': {
      const overview = need(readOverview(data), 'not an overview');
      cache.putOverview(overview);
      return { ...overview };
    }
  }
}

/** The items of a list, counting the unusable ones as dropped; ShapeRefused when it is not a list. */
function listOf<T>(cache: IdeCache, read: ReadList<T> | undefined, what: string): T[] {
  const list = need(read, what);
  cache.countDropped(list.dropped);
  return list.items;
}

/**
 * Keeps the answer to `request` and returns how many records of it were dropped as unreadable;
 * throws ShapeRefused for an answer the bridge cannot use at all.
 */
export function feedAnswer(cache: IdeCache, request: Request, data: Record<string, unknown>): number {
  const { sessionId } = request;
  const before = cache.droppedRecords;
  switch (request.type) {
    case 'chat.send':
      break;
    case 'chat.history':
      cache.putHistory(sessionId!, listOf(cache, readAll(data.messages, readMessage), 'messages is not a list'));
      break;
    case 'session.list':
      cache.putSessionList(listOf(cache, readAll(data.sessions, readSession), 'sessions is not a list'));
      break;
    case 'session.create':
      cache.putSession(need(readSession(data.session), 'not a session'));
      break;
    case 'plan.status':
      cache.putPlan(need(readPlan(sessionId!, data), 'not a plan'));
      break;
    case 'build.status':
      cache.putBuild(need(readBuild(data.build), 'not a build'));
      break;
    case 'build.list': {
      const whole = Array.isArray(data.builds) && data.builds.length < (request.data.limit as number);
      cache.putBuildList(listOf(cache, readAll(data.builds, readBuild), 'builds is not a list'), request.data.repo as string | undefined, whole);
      break;
    }
    case 'build.logs':
      cache.putLog(request.data.buildId as string, need(readLines(data.lines), 'lines are not strings'));
      break;
    case 'dashboard.overview':
      cache.putOverview(need(readOverview(data), 'not an overview'));
      break;
    case 'dashboard.activity':
      // Newest first on the wire, oldest first in the cache (pushes are appended).
      cache.putActivity(listOf(cache, readAll(data.events, readActivity), 'events is not a list').reverse());
      break;
    case 'dashboard.state':
    case 'dashboard.update':
      try {
        cache.putDashboard(readState(data));
      } catch (err) {
        cache.unconfirmDashboard();
        throw err;
      }
      break;
  }
  return cache.droppedRecords - before;
}
