import type { Logger } from '../lib/logger.js';
import type { JsonSchema } from '../lib/schema.js';

/** The methods a plugin route may answer; a GET route answers HEAD as well. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One HTTP route of a plugin, mounted at `/plugins/<plugin>/<path>` behind the gateway's
 * Host/Origin guard, API keys and rate limit, and described in the OpenAPI document.
 */
export interface RouteDefinition {
  readonly method: HttpMethod;
  /**
   * Relative to `/plugins/<plugin>/`: segments of `A-Z a-z 0-9 . _ ~ -`, or `:name` for a
   * path parameter (`items/:id`). A leading `/` is ignored. The first segment may not be
   * `static` (the plugin's static files live there).
   */
  readonly path: string;
  /** What the route does; the OpenAPI document shows it. Required. */
  readonly description: string;
  /** A short title for the OpenAPI document; `<METHOD> <path>` by default. */
  readonly summary?: string;
  /**
   * A name (`^[a-z][a-z0-9_-]{0,63}$`) that lets an operator grant this route alone: a key
   * with `route:<plugin>:<scope>` may call the routes of that scope. Keys with `*`,
   * `plugin:<plugin>` or `route:<plugin>` may call every route of the plugin whatever its scope.
   */
  readonly scope?: string;
  /**
   * JSON Schema 2020-12 of the JSON body (POST, PUT, PATCH, DELETE), checked with the same
   * compiler as tool arguments: strict, defaults filled in, nothing coerced. An empty body
   * is `{}`. Without it, the parsed JSON (or `undefined`) reaches the handler unchecked.
   */
  readonly bodySchema?: JsonSchema;
  /**
   * JSON Schema of the query string, `type: "object"`. Query values arrive as strings and
   * are coerced to the scalar types the schema names (`?limit=5` → `5`).
   */
  readonly querySchema?: JsonSchema;
  /**
   * JSON Schema of the value the handler returns (the `data` of the envelope). When given,
   * every JSON result must match it; a mismatch is the plugin's bug and answers INTERNAL_ERROR.
   */
  readonly responseSchema?: JsonSchema;
  /** The media type of the route's `httpResponse(...)` replies, for the OpenAPI document. */
  readonly responseType?: string;
  /** Body cap in bytes; it can lower `transports.http.bodyLimitBytes`, never raise it. */
  readonly bodyLimit?: number;
  /** Time limit of the handler; `tools.timeoutMs` by default. Past it: ROUTE_TIMEOUT. */
  readonly timeoutMs?: number;
}

/** Who calls a route or opens a plugin WebSocket. */
export interface RouteCaller {
  /** The API key's name, else the client's address. */
  readonly identity: string;
  /** The API key's name, when the gateway requires keys. */
  readonly keyName?: string;
  /** The client's address. */
  readonly address?: string;
}

/** What a route handler gets. */
export interface RouteRequest<Body = unknown, Query = Record<string, unknown>> {
  readonly method: string;
  /** Path parameters by name (`items/:id` → `{id: "7"}`), decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The query, checked against `querySchema` when the route has one. */
  readonly query: Query;
  /** The JSON body, checked against `bodySchema` when the route has one. */
  readonly body: Body;
  /**
   * The request headers, by lower-case name, without `authorization`, `x-api-key` and
   * `cookie`: the caller's key is the gateway's business, never a plugin's.
   */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly caller: RouteCaller;
  /**
   * Fires when the client goes away (CANCELLED), the route's time limit passes
   * (ROUTE_TIMEOUT) or the gateway shuts down (SHUTTING_DOWN); `signal.reason` says which.
   */
  readonly signal: AbortSignal;
  /** A logger tagged with the plugin and the route. */
  readonly log: Logger;
}

/**
 * Answers a route. Returns a JSON value, sent as `{"success": true, "data": <value>}`
 * (`undefined` as `null`), or `httpResponse(...)` for any other content type or status.
 * Throw `ctx.error(...)` for a failure: the caller gets the error envelope with the code's
 * status. Anything else thrown answers INTERNAL_ERROR, logged in full.
 */
export type RouteHandler<Body = unknown, Query = Record<string, unknown>> = (request: RouteRequest<Body, Query>) => unknown;

/** Options of `ctx.http.static`. */
export interface StaticOptions {
  /** The file served for a folder's URL (ending in `/`); `index.html` by default, `false` for none. */
  readonly index?: string | false;
  /**
   * `Cache-Control: max-age` in seconds; 0 (the default) makes browsers revalidate each
   * time (`no-cache`), which the ETag makes cheap.
   */
  readonly maxAgeS?: number;
}

/** Options of `ctx.http.websocket`. */
export interface WebSocketRouteOptions {
  /** What the channel carries, for the plugin's README and the logs. */
  readonly description?: string;
  /** As `RouteDefinition.scope`: `route:<plugin>:<scope>` keys may open it. */
  readonly scope?: string;
  /** A client message larger than this closes the socket with 1009. 64 KiB by default. */
  readonly maxMessageBytes?: number;
  /**
   * Bytes waiting to be sent to the client before it is dropped as too slow (close code
   * 4008): a reader that stalls never makes the plugin or other clients wait. 1 MiB by default.
   */
  readonly maxQueuedBytes?: number;
}

/** One client of a plugin WebSocket route. */
export interface PluginSocket {
  readonly caller: RouteCaller;
  /** The query of the upgrade request (`?room=a` → `{room: "a"}`; the last of repeated keys). */
  readonly query: Readonly<Record<string, string>>;
  /** Aborted when the socket closes, for whatever reason. */
  readonly signal: AbortSignal;
  /** Bytes queued to the client and not sent yet. */
  readonly bufferedAmount: number;
  /**
   * Sends a text frame (a string), a binary frame (bytes), or any other value as JSON text.
   * Returns false, sending nothing, when the socket is not open, or when the client is
   * past `maxQueuedBytes`: then it is closed with 4008.
   */
  send(message: string | Uint8Array | object | number | boolean | null): boolean;
  /**
   * Receives each message: a string for a text frame, a Buffer for a binary one. Messages
   * that arrive before the first handler is registered are kept (up to 64) and handed to it.
   * A handler that throws closes the socket with 1011.
   */
  onMessage(handler: (message: string | Buffer) => void): void;
  /** Closes the socket (1000 by default). */
  close(code?: number, reason?: string): void;
}

/** Called once per accepted client; a throw (or rejection) closes the socket with 1011. */
export type SocketHandler = (socket: PluginSocket) => unknown;

/**
 * `ctx.http`: a plugin's HTTP contributions. Call it during `setup` only: the HTTP face
 * mounts what was recorded when it starts (never in `--stdio` mode), and a call after setup
 * throws PLUGIN_SETUP_OVER. Each method checks its arguments at once and throws
 * ROUTE_DEFINITION_INVALID for a bad one. A plugin never opens a listener of its own.
 */
export interface PluginHttp {
  /** Records a route at `/plugins/<plugin>/<definition.path>`. */
  route<Body = unknown, Query = Record<string, unknown>>(definition: RouteDefinition, handler: RouteHandler<Body, Query>): void;
  /**
   * Serves the files under `dir` (an absolute path) at `/plugins/<plugin>/static/`, once per
   * plugin. Dotfiles are not served; a path that climbs out of `dir` (`..`, encoded or not,
   * or a symlink leading out) is refused with STATIC_PATH_REFUSED.
   */
  static(dir: string, options?: StaticOptions): void;
  /** Records a WebSocket route at `/plugins/<plugin>/<path>` (literal segments only). */
  websocket(path: string, onConnection: SocketHandler, options?: WebSocketRouteOptions): void;
}
