import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { HandlerTarget } from '../catalog/call-pipeline.js';
import { createSchemaCompiler, type JsonSchema, type ValidateFunction } from '../lib/schema.js';
import { GatewayError } from '../contract/errors.js';
import type { Logger } from '../lib/logger.js';
import type {
  HttpMethod,
  PluginHttp,
  RouteDefinition,
  RouteHandler,
  SocketHandler,
  StaticOptions,
  WebSocketRouteOptions,
} from '../contract/route-types.js';
import { checkPath, checkRouteFields, checkSocketOptions, checkStatic, definitionError, routerShape } from './route-definitions.js';

/** A route checked and compiled, waiting for the HTTP face to mount it. */
export interface PreparedRoute {
  readonly plugin: string;
  readonly method: HttpMethod;
  /** The full path, `/plugins/<plugin>/<path>`, in the router's `:param` syntax. */
  readonly url: string;
  readonly params: readonly string[];
  readonly definition: RouteDefinition;
  readonly handler: RouteHandler<never, never>;
  readonly validateBody?: ValidateFunction;
  readonly validateQuery?: ValidateFunction;
  readonly validateResponse?: ValidateFunction;
  readonly timeoutMs: number;
  /** Who runs its requests, for the call pipeline; its label is `<METHOD> <url>`. */
  readonly target: HandlerTarget;
  readonly operationId: string;
}

export interface PreparedStatic {
  readonly plugin: string;
  /** The folder's real path (symlinks resolved), which every served file must lie under. */
  readonly root: string;
  readonly index: string | false;
  readonly maxAgeS: number;
}

export interface PreparedSocket {
  readonly plugin: string;
  readonly url: string;
  readonly handler: SocketHandler;
  readonly description?: string;
  readonly scope?: string;
  readonly maxMessageBytes: number;
  readonly maxQueuedBytes: number;
}

/** What one plugin recorded during its setup. */
export interface RecordedRoutes {
  readonly routes: PreparedRoute[];
  readonly statics: PreparedStatic[];
  readonly sockets: PreparedSocket[];
}

/** A plugin's `ctx.http`, and `seal()`, which the host calls when setup has succeeded. */
export interface RouteRecorder {
  readonly http: PluginHttp;
  seal(): RecordedRoutes;
}

/**
 * Every plugin route of the gateway. Plugins record routes during setup (`ctx.http`); they
 * join the table when the setup succeeds, as tools join the catalog, and the HTTP face mounts
 * the table when it starts. Routes cannot be added later: fastify's router is fixed once the
 * app is ready.
 */
export class PluginRouteTable {
  readonly #ajv: Ajv2020;
  readonly #queryAjv: Ajv2020;
  readonly #defaultTimeoutMs: number;
  readonly #routes: PreparedRoute[] = [];
  readonly #statics: PreparedStatic[] = [];
  readonly #sockets: PreparedSocket[] = [];

  /** `ajv` is the tools' compiler, so that bodies are judged exactly as tool arguments are. */
  constructor(options: { ajv: Ajv2020; log?: Logger; defaultTimeoutMs: number }) {
    this.#ajv = options.ajv;
    // Query values are strings by nature: this one coerces them to the schema's scalars.
    this.#queryAjv = createSchemaCompiler({ useDefaults: true, coerceTypes: true, log: options.log });
    this.#defaultTimeoutMs = options.defaultTimeoutMs;
  }

  get routes(): readonly PreparedRoute[] {
    return this.#routes;
  }

  get statics(): readonly PreparedStatic[] {
    return this.#statics;
  }

  get sockets(): readonly PreparedSocket[] {
    return this.#sockets;
  }

  /** Whether `plugin` added any route, static folder or socket. */
  has(plugin: string): boolean {
    return [...this.#routes, ...this.#statics, ...this.#sockets].some((entry) => entry.plugin === plugin);
  }

  add(recorded: RecordedRoutes): void {
    this.#routes.push(...recorded.routes);
    this.#statics.push(...recorded.statics);
    this.#sockets.push(...recorded.sockets);
  }

  /** The `ctx.http` of one plugin during its setup. */
  recorder(plugin: string): RouteRecorder {
    const recorded: RecordedRoutes = { routes: [], statics: [], sockets: [] };
    /** `METHOD shape` of every route, and `GET shape` of every socket (it answers a plain GET). */
    const taken = new Set<string>();
    const operationIds = new Set<string>();
    let sealed = false;
    const open = (what: string) => {
      // The HTTP face mounts routes once, when it starts: one recorded later would never serve.
      if (sealed) throw new GatewayError('PLUGIN_SETUP_OVER', `Plugin "${plugin}" called ctx.http for ${what} after its setup was over: ctx.http is for setup only, so record routes in setup.`);
    };
    const compile = (what: string, key: string, schema: JsonSchema | undefined, ajv: Ajv2020) => {
      if (schema === undefined) return undefined;
      try {
        return ajv.compile(schema);
      } catch (err) {
        throw definitionError(plugin, what, `${key} does not compile: ${(err as Error).message}`);
      }
    };

    const http: PluginHttp = {
      route: (definition, handler) => {
        open(`route ${String(definition?.method)} ${String(definition?.path)}`);
        const { what, path, params } = checkRouteFields(plugin, definition);
        if (typeof handler !== 'function') throw definitionError(plugin, what, 'the handler must be a function');
        const key = `${definition.method} ${routerShape(path)}`;
        if (taken.has(key)) throw definitionError(plugin, what, 'another route or WebSocket of this plugin has the same method and path');
        const url = `/plugins/${plugin}/${path}`;
        const timeoutMs = definition.timeoutMs ?? this.#defaultTimeoutMs;
        const route: PreparedRoute = {
          plugin,
          method: definition.method,
          url,
          params,
          definition,
          handler: handler as RouteHandler<never, never>,
          validateBody: compile(what, 'bodySchema', definition.bodySchema, this.#ajv),
          validateQuery: compile(what, 'querySchema', definition.querySchema, this.#queryAjv),
          validateResponse: compile(what, 'responseSchema', definition.responseSchema, this.#ajv),
          timeoutMs,
          target: { plugin, label: `${definition.method} ${url}`, timeoutMs, timeoutError: routeTimeout(`${definition.method} ${url}`) },
          operationId: uniqueId(operationIds, `${plugin}-${definition.method.toLowerCase()}-${path.replace(/:/g, 'by-').replace(/\//g, '-')}`),
        };
        taken.add(key);
        recorded.routes.push(route);
      },
      static: (dir: string, options?: StaticOptions) => {
        open('static files');
        if (recorded.statics.length > 0) throw definitionError(plugin, 'static files', 'ctx.http.static may be called once per plugin');
        recorded.statics.push({ plugin, ...checkStatic(plugin, dir, options) });
      },
      websocket: (path: string, onConnection: SocketHandler, options?: WebSocketRouteOptions) => {
        const what = `WebSocket ${String(path)}`;
        open(what);
        const checked = checkPath(plugin, what, path, false);
        if (typeof onConnection !== 'function') throw definitionError(plugin, what, 'onConnection must be a function');
        const key = `GET ${checked.path}`;
        if (taken.has(key)) throw definitionError(plugin, what, 'another WebSocket or GET route of this plugin has this path');
        const socket = { plugin, url: `/plugins/${plugin}/${checked.path}`, handler: onConnection, ...checkSocketOptions(plugin, what, options) };
        taken.add(key);
        recorded.sockets.push(socket);
      },
    };
    return {
      http,
      seal: () => {
        sealed = true;
        return recorded;
      },
    };
  }
}

/** ROUTE_TIMEOUT for a route past its time limit, as its callers read it (504). */
function routeTimeout(name: string): (timeoutMs: number) => GatewayError {
  return (timeoutMs) => new GatewayError('ROUTE_TIMEOUT', `${name} did not answer within ${timeoutMs} ms and was cancelled.`, { details: { timeoutMs } });
}

function uniqueId(taken: Set<string>, id: string): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}-${n}`;
  taken.add(candidate);
  return candidate;
}
