import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { GatewayError } from '../contract/errors.js';
import type { HttpMethod, RouteDefinition, StaticOptions, WebSocketRouteOptions } from '../contract/route-types.js';

/**
 * The checks of what a plugin records through `ctx.http`, made when it records it (during
 * setup), so that a mistake stops the boot naming the plugin rather than failing when the
 * HTTP face mounts the route, or later, on a request.
 */

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const LITERAL_SEGMENT = /^[A-Za-z0-9._~-]{1,64}$/;
const PARAM_SEGMENT = /^:([A-Za-z_][A-Za-z0-9_]{0,31})$/;
const SCOPE_NAME = /^[a-z][a-z0-9_-]{0,63}$/;
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;
const MAX_SEGMENTS = 16;
/** The first segment of every plugin's static files. */
export const STATIC_SEGMENT = 'static';

export function definitionError(plugin: string, what: string, problem: string): GatewayError {
  return new GatewayError('ROUTE_DEFINITION_INVALID', `Plugin "${plugin}": ${what}: ${problem}.`);
}

/** A route or socket path checked and without its leading `/`, and its parameter names. */
export function checkPath(plugin: string, what: string, path: unknown, allowParams: boolean): { path: string; params: string[] } {
  if (typeof path !== 'string') throw definitionError(plugin, what, 'the path must be a string');
  const relative = path.startsWith('/') ? path.slice(1) : path;
  const segments = relative.split('/');
  if (relative === '' || segments.length > MAX_SEGMENTS) throw definitionError(plugin, what, `the path must have 1 to ${MAX_SEGMENTS} segments`);
  const params: string[] = [];
  for (const segment of segments) {
    const param = PARAM_SEGMENT.exec(segment)?.[1];
    if (param !== undefined && allowParams) {
      if (params.includes(param)) throw definitionError(plugin, what, `the parameter :${param} appears twice`);
      params.push(param);
      continue;
    }
    if (!LITERAL_SEGMENT.test(segment) || segment === '.' || segment === '..') {
      const allowed = allowParams ? 'letters, digits, . _ ~ - or a :parameter' : 'letters, digits, . _ ~ - (no parameters)';
      throw definitionError(plugin, what, `the path segment "${segment}" must be ${allowed}`);
    }
  }
  if (segments[0] === STATIC_SEGMENT) throw definitionError(plugin, what, `the path may not start with "${STATIC_SEGMENT}/": ctx.http.static serves files there`);
  return { path: relative, params };
}

/** The path as the router sees it: parameter names do not tell two routes apart. */
export function routerShape(path: string): string {
  return path
    .split('/')
    .map((s) => (s.startsWith(':') ? ':' : s))
    .join('/');
}

export function checkScope(plugin: string, what: string, scope: unknown): string | undefined {
  if (scope === undefined) return undefined;
  if (typeof scope !== 'string' || !SCOPE_NAME.test(scope)) throw definitionError(plugin, what, `scope must match ${SCOPE_NAME.source}`);
  return scope;
}

function positiveInteger(plugin: string, what: string, key: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 1) throw definitionError(plugin, what, `${key} must be a positive integer`);
  return value as number;
}

/** Checks the fields of a route definition that need no compiler. */
export function checkRouteFields(plugin: string, definition: RouteDefinition): { what: string; path: string; params: string[] } {
  if (typeof definition !== 'object' || definition === null) throw definitionError(plugin, 'a route', 'the definition must be an object');
  const method = definition.method;
  if (!HTTP_METHODS.includes(method)) throw definitionError(plugin, `route ${String(method)} ${String(definition.path)}`, `method must be one of ${HTTP_METHODS.join(', ')}`);
  const what = `route ${method} ${String(definition.path)}`;
  const { path, params } = checkPath(plugin, what, definition.path, true);
  if (typeof definition.description !== 'string' || definition.description.trim() === '') throw definitionError(plugin, what, 'a description is required');
  if (definition.summary !== undefined && typeof definition.summary !== 'string') throw definitionError(plugin, what, 'summary must be a string');
  checkScope(plugin, what, definition.scope);
  if (definition.bodySchema !== undefined && method === 'GET') throw definitionError(plugin, what, 'a GET route has no body, so no bodySchema');
  for (const key of ['bodySchema', 'querySchema', 'responseSchema'] as const) {
    const schema = definition[key];
    if (schema !== undefined && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) throw definitionError(plugin, what, `${key} must be a JSON Schema object`);
  }
  if (definition.querySchema !== undefined && definition.querySchema.type !== 'object') throw definitionError(plugin, what, 'querySchema must have type: "object"');
  if (definition.responseType !== undefined && (typeof definition.responseType !== 'string' || !MEDIA_TYPE.test(definition.responseType))) {
    throw definitionError(plugin, what, 'responseType must be a media type such as text/html');
  }
  positiveInteger(plugin, what, 'bodyLimit', definition.bodyLimit);
  positiveInteger(plugin, what, 'timeoutMs', definition.timeoutMs);
  return { what, path, params };
}

/** The static folder's real path and resolved options. */
export function checkStatic(plugin: string, dir: unknown, options: StaticOptions = {}): { root: string; index: string | false; maxAgeS: number } {
  const what = 'static files';
  if (typeof dir !== 'string' || !isAbsolute(dir)) throw definitionError(plugin, what, 'dir must be an absolute path (e.g. fileURLToPath(new URL("./public", import.meta.url)))');
  let root: string;
  try {
    root = realpathSync(dir);
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch (err) {
    throw definitionError(plugin, what, `${dir} is not a readable directory (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const index = options.index ?? 'index.html';
  if (index !== false && (typeof index !== 'string' || !LITERAL_SEGMENT.test(index) || index.startsWith('.'))) throw definitionError(plugin, what, 'index must be a file name (no slashes) or false');
  const maxAgeS = options.maxAgeS ?? 0;
  if (!Number.isInteger(maxAgeS) || maxAgeS < 0) throw definitionError(plugin, what, 'maxAgeS must be an integer ≥ 0');
  return { root, index, maxAgeS };
}

export const SOCKET_DEFAULTS = { maxMessageBytes: 64 * 1024, maxQueuedBytes: 1024 * 1024 } as const;

export function checkSocketOptions(plugin: string, what: string, options: WebSocketRouteOptions = {}) {
  if (options.description !== undefined && typeof options.description !== 'string') throw definitionError(plugin, what, 'description must be a string');
  return {
    description: options.description,
    scope: checkScope(plugin, what, options.scope),
    maxMessageBytes: positiveInteger(plugin, what, 'maxMessageBytes', options.maxMessageBytes) ?? SOCKET_DEFAULTS.maxMessageBytes,
    maxQueuedBytes: positiveInteger(plugin, what, 'maxQueuedBytes', options.maxQueuedBytes) ?? SOCKET_DEFAULTS.maxQueuedBytes,
  };
}
