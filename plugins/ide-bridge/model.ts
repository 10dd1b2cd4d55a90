// The records the bridge keeps, and the checks that turn what the backend sent into them.
// Each reader takes fields one by one (never spreads the backend's object) and answers
// undefined for a shape it cannot use, so a bad record is dropped, not half kept.
import { isObject } from './protocol.js';
import { buildOutcome } from './outcome.js';

export interface Session {
  id: string;
  name: string;
  status: string;
  createdAt: string;
}

export interface ChatMessage {
  role: string;
  content: string;
  timestamp: string;
}

export interface PlanStep {
  name: string;
  status: string;
}

export interface Plan {
  sessionId: string;
  status: string;
  steps: PlanStep[];
}

export interface Build {
  id: string;
  repo: string;
  branch: string;
  status: string;
  /** Seconds, once finished. */
  duration: number | null;
  /** null for a build that has not started (queued, pending). */
  startedAt: string | null;
}

export interface ActivityEvent {
  type: string;
  message: string;
  timestamp: string;
}

export interface Overview {
  repos: number;
  services: number;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
/** Field limits, in characters (UTF-16 code units, as JavaScript counts); PROTOCOL.md lists them. */
export const LIMITS = { name: 256, status: 64, role: 32, repo: 256, branch: 256, content: 16 * 1024, stepName: 1024, steps: 256, line: 8 * 1024, activityType: 64, activityMessage: 4096 } as const;

const text = (value: unknown, limit = 256): string | undefined => (typeof value === 'string' && value.length <= limit ? value : undefined);
export const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
const time = (value: unknown): string | undefined => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined);

export function readSession(raw: unknown): Session | undefined {
  if (!isObject(raw) || !isId(raw.id)) return undefined;
  const name = text(raw.name, LIMITS.name);
  const status = text(raw.status, LIMITS.status);
  const createdAt = time(raw.createdAt);
  return name !== undefined && status !== undefined && createdAt !== undefined ? { id: raw.id, name, status, createdAt } : undefined;
}

export function readMessage(raw: unknown): ChatMessage | undefined {
  if (!isObject(raw)) return undefined;
  const role = text(raw.role, LIMITS.role);
  const content = text(raw.content, LIMITS.content);
  const timestamp = time(raw.timestamp);
  return role !== undefined && content !== undefined && timestamp !== undefined ? { role, content, timestamp } : undefined;
}

export function readPlan(sessionId: string, raw: unknown): Plan | undefined {
  if (!isObject(raw) || !Array.isArray(raw.steps) || raw.steps.length > LIMITS.steps) return undefined;
  const status = text(raw.status, LIMITS.status);
  const steps = raw.steps.map((step: unknown) => (isObject(step) ? { name: text(step.name, LIMITS.stepName), status: text(step.status, LIMITS.status) } : {}));
  if (status === undefined || steps.some((s) => s.name === undefined || s.status === undefined)) return undefined;
  return { sessionId, status, steps: steps as PlanStep[] };
}

export function readBuild(raw: unknown): Build | undefined {
  if (!isObject(raw) || !isId(raw.id)) return undefined;
  const repo = text(raw.repo, LIMITS.repo);
  const branch = text(raw.branch, LIMITS.branch);
  const status = text(raw.status, LIMITS.status);
  // A build that has not started yet has no start: null is allowed while its status is no outcome (queued, pending...).
  const startedAt = raw.startedAt === null && status !== undefined && buildOutcome(status) === undefined ? null : time(raw.startedAt);
  const duration = raw.duration === null || raw.duration === undefined ? null : typeof raw.duration === 'number' && raw.duration >= 0 && Number.isFinite(raw.duration) ? raw.duration : undefined;
  if (repo === undefined || branch === undefined || status === undefined || startedAt === undefined || duration === undefined) return undefined;
  return { id: raw.id, repo, branch, status, duration, startedAt };
}

export function readLines(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const lines = raw.map((line) => text(line, LIMITS.line));
  return lines.every((line) => line !== undefined) ? (lines as string[]) : undefined;
}

export function readActivity(raw: unknown): ActivityEvent | undefined {
  if (!isObject(raw)) return undefined;
  const type = text(raw.type, LIMITS.activityType);
  const message = text(raw.message, LIMITS.activityMessage);
  const timestamp = time(raw.timestamp);
  return type !== undefined && message !== undefined && timestamp !== undefined ? { type, message, timestamp } : undefined;
}

export function readOverview(raw: unknown): Overview | undefined {
  if (!isObject(raw)) return undefined;
  const { repos, services } = raw;
  return Number.isInteger(repos) && Number.isInteger(services) && (repos as number) >= 0 && (services as number) >= 0 ? { repos: repos as number, services: services as number } : undefined;
}

/** A list read item by item: the usable items, and how many were dropped as unusable. */
export interface ReadList<T> {
  items: T[];
  dropped: number;
}

/**
 * Every usable item of a list read with `read`; undefined only when it is not a list. One bad
 * record (a name over its limit, a field missing) must not hide the others.
 */
export function readAll<T>(raw: unknown, read: (item: unknown) => T | undefined): ReadList<T> | undefined {
  if (!Array.isArray(raw)) return undefined;
  const items: T[] = [];
  for (const entry of raw) {
    const item = read(entry);
    if (item !== undefined) items.push(item);
  }
  return { items, dropped: raw.length - items.length };
}
