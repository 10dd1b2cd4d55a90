// The records the bridge keeps, and the checks that turn what the backend sent into them.
// Each reader takes fields one by one (never spreads the backend's object) and answers
// undefined for a shape it cannot use, so a bad record is dropped, not half kept.
import { isObject } from './protocol.js';

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
  startedAt: string;
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
const CONTENT_LIMIT = 64 * 1024;
const LINE_LIMIT = 8 * 1024;

const text = (value: unknown, limit = 256): string | undefined => (typeof value === 'string' && value.length <= limit ? value : undefined);
export const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
const time = (value: unknown): string | undefined => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined);

export function readSession(raw: unknown): Session | undefined {
  if (!isObject(raw) || !isId(raw.id)) return undefined;
  const name = text(raw.name);
  const status = text(raw.status, 64);
  const createdAt = time(raw.createdAt);
  return name !== undefined && status !== undefined && createdAt !== undefined ? { id: raw.id, name, status, createdAt } : undefined;
}

export function readMessage(raw: unknown): ChatMessage | undefined {
  if (!isObject(raw)) return undefined;
  const role = text(raw.role, 32);
  const content = text(raw.content, CONTENT_LIMIT);
  const timestamp = time(raw.timestamp);
  return role !== undefined && content !== undefined && timestamp !== undefined ? { role, content, timestamp } : undefined;
}

export function readPlan(sessionId: string, raw: unknown): Plan | undefined {
  if (!isObject(raw) || !Array.isArray(raw.steps)) return undefined;
  const status = text(raw.status, 64);
  const steps = raw.steps.map((step: unknown) => (isObject(step) ? { name: text(step.name, 1024), status: text(step.status, 64) } : {}));
  if (status === undefined || steps.some((s) => s.name === undefined || s.status === undefined)) return undefined;
  return { sessionId, status, steps: steps as PlanStep[] };
}

export function readBuild(raw: unknown): Build | undefined {
  if (!isObject(raw) || !isId(raw.id)) return undefined;
  const repo = text(raw.repo);
  const branch = text(raw.branch);
  const status = text(raw.status, 64);
  const startedAt = time(raw.startedAt);
  const duration = raw.duration === null || raw.duration === undefined ? null : typeof raw.duration === 'number' && raw.duration >= 0 && Number.isFinite(raw.duration) ? raw.duration : undefined;
  if (repo === undefined || branch === undefined || status === undefined || startedAt === undefined || duration === undefined) return undefined;
  return { id: raw.id, repo, branch, status, duration, startedAt };
}

export function readLines(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const lines = raw.map((line) => text(line, LINE_LIMIT));
  return lines.every((line) => line !== undefined) ? (lines as string[]) : undefined;
}

export function readActivity(raw: unknown): ActivityEvent | undefined {
  if (!isObject(raw)) return undefined;
  const type = text(raw.type, 64);
  const message = text(raw.message, 4096);
  const timestamp = time(raw.timestamp);
  return type !== undefined && message !== undefined && timestamp !== undefined ? { type, message, timestamp } : undefined;
}

export function readOverview(raw: unknown): Overview | undefined {
  if (!isObject(raw)) return undefined;
  const { repos, services } = raw;
  return Number.isInteger(repos) && Number.isInteger(services) && (repos as number) >= 0 && (services as number) >= 0 ? { repos: repos as number, services: services as number } : undefined;
}

/** Every item of a list read with `read`, or undefined when the list or any item is unusable. */
export function readAll<T>(raw: unknown, read: (item: unknown) => T | undefined): T[] | undefined {
  if (!Array.isArray(raw)) return undefined;
  const items = raw.map(read);
  return items.every((item) => item !== undefined) ? (items as T[]) : undefined;
}
