// What the backend says, into the cache: its pushes, and its answers to the gateway's
// requests. A record of an unusable shape is refused (the caller logs and drops it).
import type { IdeCache } from './cache.js';
import type { Request } from './exchange.js';
import { isId, readActivity, readAll, readBuild, readLines, readMessage, readOverview, readPlan, readSession } from './model.js';
import { isObject, type Envelope, type PushType } from './protocol.js';

/** The dashboard state travels whole; beyond this it is refused rather than kept. */
export const STATE_LIMIT_BYTES = 256 * 1024;

export class ShapeRefused extends Error {}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new ShapeRefused(what);
  return value;
}

function readState(data: Record<string, unknown>): { state: Record<string, unknown>; updatedAt: string | null } {
  const state = need(isObject(data.state) ? data.state : undefined, 'state is not an object');
  if (JSON.stringify(state).length > STATE_LIMIT_BYTES) throw new ShapeRefused(`state is larger than ${STATE_LIMIT_BYTES} bytes`);
  const updatedAt = typeof data.updatedAt === 'string' && !Number.isNaN(Date.parse(data.updatedAt)) ? new Date(data.updatedAt).toISOString() : null;
  return { state, updatedAt };
}

/** Keeps a push; throws ShapeRefused for one whose data the bridge cannot use. */
export function feedPush(cache: IdeCache, envelope: Envelope<PushType>): void {
  const data = envelope.data ?? {};
  const sessionId = envelope.sessionId;
  switch (envelope.type) {
    case 'chat.message':
      cache.addMessage(need(isId(sessionId) ? sessionId : undefined, 'chat.message without a valid sessionId'), need(readMessage(data), 'not a chat message'));
      return;
    case 'session.updated':
      cache.putSession(need(readSession(data.session), 'not a session'));
      return;
    case 'plan.updated':
      cache.putPlan(need(readPlan(need(isId(sessionId) ? sessionId : undefined, 'plan.updated without a valid sessionId'), data), 'not a plan'));
      return;
    case 'build.updated':
      cache.putBuild(need(readBuild(data.build), 'not a build'));
      return;
    case 'build.log':
      cache.addLogLines(need(isId(data.buildId) ? data.buildId : undefined, 'build.log without a valid buildId'), need(readLines(data.lines), 'lines are not strings'));
      return;
    case 'activity':
      cache.addActivity(need(readActivity(data), 'not an activity event'));
      return;
    case 'dashboard.state':
      cache.putDashboard(readState(data));
      return;
    case 'dashboard.overview':
      cache.putOverview(need(readOverview(data), 'not an overview'));
      return;
  }
}

/** Keeps the answer to `request`; throws ShapeRefused for an answer the bridge cannot use. */
export function feedAnswer(cache: IdeCache, request: Request, data: Record<string, unknown>): void {
  const { sessionId } = request;
  switch (request.type) {
    case 'chat.send':
      return;
    case 'chat.history':
      cache.putHistory(sessionId!, need(readAll(data.messages, readMessage), 'messages are not chat messages'));
      return;
    case 'session.list':
      cache.putSessionList(need(readAll(data.sessions, readSession), 'sessions are not sessions'));
      return;
    case 'session.create':
      cache.putSession(need(readSession(data.session), 'not a session'));
      return;
    case 'plan.status':
      cache.putPlan(need(readPlan(sessionId!, data), 'not a plan'));
      return;
    case 'build.status':
      cache.putBuild(need(readBuild(data.build), 'not a build'));
      return;
    case 'build.list':
      cache.putBuildList(need(readAll(data.builds, readBuild), 'builds are not builds'), request.data.repo as string | undefined);
      return;
    case 'build.logs':
      cache.putLog(request.data.buildId as string, need(readLines(data.lines), 'lines are not strings'));
      return;
    case 'dashboard.overview':
      cache.putOverview(need(readOverview(data), 'not an overview'));
      return;
    case 'dashboard.activity':
      // Newest first on the wire, oldest first in the cache (pushes are appended).
      cache.putActivity(need(readAll(data.events, readActivity), 'events are not activity events').reverse());
      return;
    case 'dashboard.state':
    case 'dashboard.update':
      cache.putDashboard(readState(data));
      return;
  }
}
