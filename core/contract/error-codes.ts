/**
 * The one error table of the gateway. Every failure a caller can see has a stable string
 * code here (or in a plugin's own `errors` declaration), its HTTP status and the form it
 * takes over MCP:
 * - `protocol`: a JSON-RPC error (the request itself was wrong), with `jsonRpcCode`;
 * - `result`: a tool result with `isError: true` carrying `{code, message, details?}`.
 *
 * docs/errors.md lists every code; test/core/contract/errors.test.ts keeps the two in step. The error
 * class and the table a running gateway uses are in errors.ts.
 */

export type McpErrorForm = 'protocol' | 'result';

export interface ErrorSpec {
  /** HTTP status the REST bridge answers with. */
  readonly status: number;
  /** How an MCP client sees this failure. */
  readonly mcp: McpErrorForm;
  /** JSON-RPC error code, for `protocol` errors. */
  readonly jsonRpcCode?: number;
  /** One line for docs/errors.md: when it happens and what the caller should do. */
  readonly description: string;
}

/** JSON-RPC 2.0 codes (https://www.jsonrpc.org/specification#error_object). */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerError: -32000,
} as const;

export const coreErrors = {
  PARSE_ERROR: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.ParseError,
    description: 'The message is not valid JSON. Send one JSON-RPC message per line.',
  },
  INVALID_REQUEST: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'The message is JSON but not a JSON-RPC 2.0 request, notification or response.',
  },
  MESSAGE_TOO_LARGE: {
    status: 413,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'The message is larger than the transport cap (10 MiB by default); it was discarded.',
  },
  REPLY_TOO_LARGE: {
    status: 500,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.ServerError,
    description: "TCP, unix socket, stdio: the answer to this request is larger than the transport's reply cap (`maxReplyBytes`, 40 MiB by default) and was not sent; the session goes on. Ask for less (a line range, a page), or raise the cap.",
  },
  CONNECTION_LIMIT: {
    status: 503,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.ServerError,
    description: 'The transport already serves its maximum number of connections; retry later. Over TCP, also the last line of a connection that had not sent its key yet when a newer connection took its slot: send initialize with the key as soon as you connect.',
  },
  INVALID_PARAMS: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: 'The request\'s params are malformed, e.g. tools/call without a tool name or with arguments that are not an object.',
  },
  UNKNOWN_TOOL: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: 'No tool has this name. List the tools (tools/list, GET /tools) for valid names.',
  },
  NOT_FOUND: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: no route here. GET /tools lists the tools; /openapi.json describes every route.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: the body is not JSON. Send `Content-Type: application/json`.',
  },
  UPGRADE_REQUIRED: {
    status: 426,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: /events is a WebSocket; connect with a WebSocket client (ws://host:port/events).',
  },
  UNAUTHORIZED: {
    status: 401,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: API keys are configured and the request has none, or an unknown one. Send `Authorization: Bearer <key>` or `X-API-Key`.',
  },
  FORBIDDEN: {
    status: 403,
    mcp: 'result',
    description: "The API key is valid but its scopes do not cover this tool or route; ask for a key with that scope.",
  },
  NOT_IN_PROFILE: {
    status: 403,
    mcp: 'result',
    description: 'The tool is outside the profile this endpoint or API key serves (a profile with `others: refuse`); call it through an endpoint of a profile that has it, or with a key bound to one.',
  },
  PROFILE_NOT_FOUND: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: 'No profile has this name (/mcp/<profile>, /profiles/<profile>/…, --profile); the message and `details.profiles` name the ones there are.',
  },
  PROFILE_FORBIDDEN: {
    status: 403,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'The API key is bound to another profile than the endpoint serves; use the endpoint of its profile, or the plain one (/mcp, /tools), which then serves it.',
  },
  HOST_NOT_ALLOWED: {
    status: 403,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: the Host or Origin header is not one this gateway serves (DNS-rebinding protection); add it to transports.http.allowedHosts/allowedOrigins.',
  },
  DUPLICATE_HOST_HEADER: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'HTTP: the request has more than one Host header (Node would read the first, a proxy may route by the last); send exactly one.',
  },
  RATE_LIMITED: {
    status: 429,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.ServerError,
    description: 'HTTP: too many requests for this key (or address) in the window; retry after the Retry-After header.',
  },
  SESSION_NOT_FOUND: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidRequest,
    description: 'MCP over HTTP: the Mcp-Session-Id is unknown or expired (idle timeout); start a new session with initialize.',
  },
  // ROUTES (issue 11, item 3): plugin HTTP routes, static files and WebSocket routes.
  INVALID_ROUTE_INPUT: {
    status: 400,
    mcp: 'result',
    description: "HTTP: the body or query of a plugin route does not match the route's schema; `details` lists each problem.",
  },
  STATIC_PATH_REFUSED: {
    status: 403,
    mcp: 'result',
    description: "HTTP: the path asks for a file outside a plugin's static folder (`..`, encoded or not, or a symlink leading out); ask for a file inside it.",
  },
  ROUTE_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'HTTP: a plugin route did not answer within its time limit (`timeoutMs`, else `tools.timeoutMs`) and was cancelled.',
  },
  ROUTE_DEFINITION_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a plugin HTTP route, static folder or WebSocket route is malformed, recorded twice, or recorded after setup.',
  },
  INVALID_ARGUMENTS: {
    status: 400,
    mcp: 'result',
    description: "The arguments do not match the tool's input schema; `details` lists each problem.",
  },
  TOOL_CALL_RECURSIVE: {
    status: 400,
    mcp: 'result',
    description: 'gateway_call_tool was asked to call gateway_call_tool; give it the name of the tool to run, with that tool\'s arguments.',
  },
  TOOL_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'The tool did not finish within its time limit and was cancelled.',
  },
  CANCELLED: {
    status: 499,
    mcp: 'result',
    description: 'The call was cancelled by the client, a disconnect or gateway shutdown.',
  },
  SHUTTING_DOWN: {
    status: 503,
    mcp: 'result',
    description: 'The gateway is shutting down and takes no new calls; retry on another instance.',
  },
  BREAKER_OPEN: {
    status: 503,
    mcp: 'result',
    description:
      'An external service failed repeatedly and its circuit breaker is open; retry after `details.retryAfterMs`.',
  },
  BREAKER_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'An external service did not answer in time; the request to it was aborted.',
  },
  OUTSIDE_WORKSPACE: {
    status: 403,
    mcp: 'result',
    description: 'The path resolves outside the workspace (through `..`, an absolute path or a symlink).',
  },
  INVALID_PATH: {
    status: 400,
    mcp: 'result',
    description: 'The path is malformed (empty, a null byte, or too long).',
  },
  NO_SPACE: {
    status: 507,
    mcp: 'result',
    description: 'The disk (or the quota) is full; nothing was changed. Free space and retry.',
  },
  AUDIT_UNAVAILABLE: {
    status: 503,
    mcp: 'result',
    description: 'The audit journal cannot be written (disk full or unwritable), so calls are refused rather than left unaudited; /health says degraded. Free space and retry.',
  },
  PROTECTED_PATH: {
    status: 403,
    mcp: 'result',
    description: "The path is the gateway's own config, its data folder or a protected name such as .git (the protectedPaths setting); it is never written, deleted or renamed through tools.",
  },
  // What core's workspace read refuses (Workspace.readFile, readFileInside), for every plugin alike.
  HARD_LINK_REFUSED: {
    status: 403,
    mcp: 'result',
    description: 'The file has other hard links and refuseHardLinks is on (the default): one of them may be a file outside the workspace, so it is neither read nor written. Copy the file instead of linking it, or set refuseHardLinks: false where links are made on purpose.',
  },
  FILE_TOO_LARGE: {
    status: 413,
    mcp: 'result',
    description: 'The file or content is over a size cap (details.limit; the message names the setting that raises it): read a part of it, or write less.',
  },
  IS_A_DIRECTORY: {
    status: 400,
    mcp: 'result',
    description: 'The path is a folder where a file was expected; list it instead.',
  },
  NOT_A_REGULAR_FILE: {
    status: 400,
    mcp: 'result',
    description: 'The path is a device, FIFO or socket: opening it could block for ever, so it is refused. Only regular files are read.',
  },
  STORE_UNAVAILABLE: {
    status: 503,
    mcp: 'result',
    description: 'The shared store cannot be reached: PostgreSQL is down or unreachable, refused the login, or dropped the connection mid-call (what the call had begun was rolled back). At boot the gateway does not start. Check the server and storage.shared, then retry.',
  },
  STORE_TIMEOUT: {
    status: 504,
    mcp: 'result',
    description: 'A statement on the shared store ran past storage.shared.postgres.statementTimeoutMs and was cancelled; nothing of it was written.',
  },
  STORE_CONFLICT: {
    status: 409,
    mcp: 'result',
    description: 'The shared store refused a write because another writer held the rows (a deadlock, or a busy SQLite file); the transaction was rolled back. Retry the call.',
  },
  INTERNAL_ERROR: {
    status: 500,
    mcp: 'result',
    description: 'An unexpected failure inside the gateway or a plugin; details are in the gateway log.',
  },
  CONFIG_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: the configuration file is unreadable or breaks its schema; the message names the key.',
  },
  CONFIG_NOT_FOUND: {
    status: 500,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.ServerError,
    description: 'Boot error: no config file was given (`--config`, `MCP_GATEWAY_CONFIG`) and the working directory has no `gateway.config.yaml`; MCP clients start servers in a folder of their own choosing. Pass `--config` with the file; over stdio the client\'s `initialize` gets this error.',
  },
  REGISTRY_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a registry entry is malformed, duplicated or names a module that cannot be found.',
  },
  PLUGIN_LOAD_FAILED: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a plugin module could not be imported, or its setup threw.',
  },
  SOCKET_IN_USE: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: another process (another gateway on this data folder?) serves on the unix socket path; this gateway never takes it over and does not start. Stop the other one, choose another `transports.unix.path` (or `--unix`), or start with `--no-unix`.',
  },
  PLUGIN_SETUP_TIMEOUT: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a plugin did not finish its setup within `setupTimeoutMs`.',
  },
  PLUGIN_DEPENDENCY: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a plugin requires one that is missing, disabled or failed, or requirements form a cycle.',
  },
  TOOL_DEFINITION_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a tool has a bad name, a duplicate name, a missing description or annotations, a schema ajv refuses, or an origin that is not a label of 1 to 200 characters. Also the answer to every call of a tool whose schema strict mode refuses only when compiling it (tool schemas compile on first use).',
  },
  COMMAND_DEFINITION_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a plugin CLI command (ctx.command) has a bad name (^[a-z][a-z0-9-]{0,31}$), a name the plugin already used, no description, a usage that is not a string, a runner that is not a function, or comes from a plugin named like a built-in command (serve, tools, upstream...).',
  },
  // Issue 11, part RP: resources, prompts and completions from plugins.
  RESOURCE_NOT_FOUND: {
    status: 404,
    mcp: 'protocol',
    // The code the MCP specification gives for a resource that does not exist.
    jsonRpcCode: -32002,
    description: 'No resource has this URI and no resource template matches it. List them (resources/list, resources/templates/list, GET /resources).',
  },
  INVALID_URI: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: 'The resource URI is not an absolute URI (RFC 3986: a scheme, then only URI characters and %XX escapes of UTF-8); fix the URI.',
  },
  RESOURCE_VARIABLES_INVALID: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: "The URI matches a resource template, but its variables break the template's schema; `details` lists each problem.",
  },
  UNKNOWN_PROMPT: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: 'No prompt has this name. List the prompts (prompts/list, GET /prompts) for valid names.',
  },
  PROMPT_ARGUMENTS_INVALID: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description: "The prompt's arguments do not match its arguments schema; `details` lists each problem.",
  },
  RESOURCE_DEFINITION_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a resource has a bad URI or template, a URI or template another resource has, a missing name, a variables schema ajv refuses, or an onSubscribe or onUnsubscribe that is not a function.',
  },
  PROMPT_DEFINITION_INVALID: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: a prompt has a bad name, a duplicate name, or an arguments schema that is not an object of string properties.',
  },
  // NOTIFY (issue 11, item 2): notifications to sessions and run-time catalog changes.
  PLUGIN_SETUP_OVER: {
    status: 500,
    mcp: 'result',
    description: 'A plugin called ctx.tool, ctx.resource, ctx.prompt, ctx.http or ctx.command after its setup had resolved or failed; use ctx.live.<kind>(...) to add tools, resources and prompts at run time (routes and commands are setup-only).',
  },
  PLUGIN_CLOSED: {
    status: 500,
    mcp: 'result',
    description: 'A plugin that was closed (its setup failed, or the gateway is shutting down) tried to add an entry at run time; nothing was added.',
  },
  NOTIFICATION_INVALID: {
    status: 500,
    mcp: 'result',
    description: "A plugin's ctx.notify call was malformed: an unknown target, log level or undeclared channel, or data that is not JSON; nothing was sent.",
  },
  STORE_MIGRATION_FAILED: {
    status: 500,
    mcp: 'result',
    description: "Boot error: a plugin's shared-store migration step threw, or created or dropped a table, index, view or trigger outside the plugin's name prefix; the step was rolled back and the message names the plugin and step.",
  },
  STORE_SCHEMA_NEWER: {
    status: 500,
    mcp: 'result',
    description: 'Boot error: the shared store holds a plugin at a migration version above the steps this code ships (a newer gateway wrote it). Run the newer version, or restore the backup taken before the upgrade.',
  },
  // SEARCH (issue 12, item 3): ctx.store.search, full-text and vector search.
  SEARCH_INDEX_INVALID: {
    status: 500,
    mcp: 'result',
    description: "A plugin opened a search index with a bad name or dimensions, or with dimensions other than those it was created with (vectors of another model cannot be compared); use a new index name for a new embedding model.",
  },
  SEARCH_DOCUMENT_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'A document given to a search index is malformed: an id that is not 1 to 512 characters, a field that is not a string, over 1 MiB of text, or a bad filter name or value. Nothing of the batch was written.',
  },
  SEARCH_QUERY_INVALID: {
    status: 400,
    mcp: 'result',
    description: 'A search query lacks what its mode needs (a text, a vector), or has a limit outside 1 to 1,000, bad filters or weights, or a vector holding a non-number; fix the query.',
  },
  SEARCH_DIMENSION_MISMATCH: {
    status: 400,
    mcp: 'result',
    description: "A vector's length differs from the search index's dimensions (or the index holds no vectors): embed with the model the index was built with.",
  },
  // TYPES (issue 11, items 6-8): the typed plugin contract and its metadata.
  SERVICE_UNDECLARED: {
    status: 500,
    mcp: 'result',
    description:
      "Boot error: a plugin asked for a circuit breaker (ctx.breaker) for a service its plugin object does not declare under services; add it there, so that /health shows the breaker from the start. With '*' declared: the name asked for is not a service name (^[a-z][a-z0-9_-]{0,63}$).",
  },
  // CONFORMANCE (issue 11, item 9): a tool asking the MCP client during a call.
  CLIENT_CAPABILITY_MISSING: {
    status: 400,
    mcp: 'result',
    description:
      "The tool asked the client for sampling, elicitation or its roots, but the client did not declare that capability (at initialize, or in a 2026-07-28 request's _meta), or the call came over REST or the CLI, where there is no client to ask; call the tool over MCP from a client that offers it. `details.capability` names it. A 2026-07-28 tools/call, prompts/get or resources/read gets the revision's -32021 instead, whose data.requiredCapabilities names it.",
  },
  // MCP IN BOTH ERAS (issue 35, item 4): Multi Round-Trip Requests of the 2026-07-28 revision.
  INPUT_REQUIRED: {
    status: 409,
    mcp: 'result',
    description:
      'The call asked the client a question (sampling, elicitation, roots) during a 2026-07-28 request, which cannot wait for the answer: the call ended and the client got an InputRequiredResult with the questions instead of this error. The audit log records such a round with this code.',
  },
  REQUEST_STATE_INVALID: {
    status: 400,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description:
      "A retried 2026-07-28 request carried a requestState minted for another call (another tool, prompt, resource or arguments) or another caller. A forged, altered or expired state gets the SDK's -32602 'Invalid or expired requestState'. Send the request again without requestState and inputResponses to start over.",
  },
  TASK_NOT_FOUND: {
    status: 404,
    mcp: 'protocol',
    jsonRpcCode: JsonRpcCode.InvalidParams,
    description:
      'tasks/get, tasks/update or tasks/cancel named a task that does not exist, belongs to another caller (a task is found only by the key, or the client name, that started it), or passed its TTL (one hour after it began) and was purged.',
  },
  CLIENT_REQUEST_FAILED: {
    status: 502,
    mcp: 'result',
    description: 'The tool asked the MCP client for sampling, elicitation or its roots and the client refused, answered with something that is not a valid result, or did not answer in time; `details.method` names the request.',
  },
} as const satisfies Record<string, ErrorSpec>;

/** Every code of core's table, as a literal union (what `ctx.error` accepts besides a plugin's own). */
export type CoreErrorCode = keyof typeof coreErrors;
