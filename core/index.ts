/**
 * The public plugin API of mcp-gateway: everything a plugin (in this repository or in its
 * own package) may import. Plugins never reach into other core files.
 */
import type { JsonSchema } from './lib/schema.js';
import type { ConfigType, PluginDefinition } from './contract/plugin-types.js';
export type {
  HttpMethod,
  PluginHttp,
  PluginSocket,
  RouteCaller,
  RouteDefinition,
  RouteHandler,
  RouteRequest,
  SocketHandler,
  StaticOptions,
  WebSocketRouteOptions,
} from './contract/route-types.js';
export { httpResponse, type HttpResponse, type HttpResponseOptions } from './http/route-response.js';

export type {
  CallContext,
  Caller,
  ConfigType,
  ContextOf,
  ErrorCodeOf,
  ErrorsOf,
  PluginApi,
  PluginApis,
  ClientRequestOptions,
  ElicitationParams,
  ElicitationResult,
  McpLogLevel,
  NotifyTarget,
  PluginContext,
  PluginNotify,
  PluginSessions,
  PluginDatabase,
  PluginDefinition,
  ServiceDeclaration,
  PluginEvents,
  PluginGauge,
  PluginLive,
  PluginReport,
  ProgressUpdate,
  SchemaType,
  SamplingParams,
  SamplingResult,
  ToolAnnotations,
  ToolDefinition,
  ToolHandler,
  TransportKind,
} from './contract/plugin-types.js';
export type {
  Completer,
  CompletionContext,
  PromptDefinition,
  PromptGetter,
  PromptMessage,
  ResourceAnnotations,
  ResourceContent,
  ResourceDefinition,
  ResourceReader,
  ResourceTemplateDefinition,
  StaticResourceDefinition,
} from './contract/content-types.js';
export type { CommandDefinition, CommandIo, CommandRunner } from './contract/command-types.js';
export type { ConfigCommandIo, ConfigCommandRunner, ConfigItemStyle, PluginConfigFile } from './contract/config-command-types.js';
export type { Breaker, BreakerOptions, BreakerState, BreakerStatus } from './contract/breaker-types.js';
export type { CoreErrorCode, ErrorSpec } from './contract/errors.js';
export type { EventHandler, GatewayEvent } from './lib/events.js';
export type { ListeningAddress } from './contract/addresses.js';
export type { Logger } from './lib/logger.js';
export { closedObject, type JsonSchema } from './lib/schema.js';
export type { Migration, PluginStore, StoreDialect, StoreMigration } from './contract/store-types.js';
export type {
  IndexDrift,
  SearchDocument,
  SearchFilterValue,
  SearchHit,
  SearchIndex,
  SearchIndexOptions,
  SearchMode,
  SearchQuery,
  VectorEngine,
  VectorPurpose,
  VectorSource,
  VectorsOutcome,
} from './contract/search-types.js';
// Vectors from the embeddings plugin when it is there and answers, and the fill of those missing.
export { OptionalVectors, VectorFiller, type VectorBacklog } from './storage/optional-vectors.js';
// The shared store's query builder, re-exported so that a plugin in its own package types its
// tables and writes raw SQL with the gateway's copy of Kysely rather than one of its own.
export {
  sql,
  type ColumnType,
  type Expression,
  type ExpressionBuilder,
  type Generated,
  type Insertable,
  type Kysely,
  type Selectable,
  type SqlBool,
  type Transaction,
  type Updateable,
} from './vendor/kysely.js';
export type { WorkspaceOptions } from './fs/workspace.js';
export type { FileContent, FileReadOptions, FileReadRules, Workspace } from './contract/workspace-types.js';
export { GatewayError, isGatewayError } from './contract/errors.js';
export { audioBlock, imageBlock, resourceBlock, textBlock, toolContent, type ToolContent } from './catalog/tool-result.js';
export { createWorkspace } from './fs/workspace.js';
// Sandbox-safe file access, for plugins that read or walk the workspace: no link is followed,
// each folder is checked on its descriptor, nothing is read that a check has not passed.
export { walk, readWalkedFile, type WalkEntry, type WalkOptions } from './fs/workspace-walk.js';
export { openDir, openDirCreating, openFolderInside, openResolvedDir, withDir, writeAtomicIn, type VerifiedDir } from './fs/verified-dir.js';
export { readFileNoFollow, realPathOf } from './fs/file-descriptor.js';
// The one read of a workspace file (ctx.workspace.readFile is it with the path resolved): no
// link followed, inside the sandbox, a regular file, no other hard link (refuseHardLinks), capped.
export {
  checkHardLinks,
  checkOpenedInside,
  checkReadable,
  openNoFollow,
  readFileInside,
} from './fs/workspace-file.js';
export { looksBinary } from './lib/looks-binary.js';
// Caller-chosen text (a client's name as an agent id) cut to a schema's maxLength, in code points.
export { firstCodePoints } from './lib/code-points.js';
// JSON Lines from a stream (a command's stdin), split at "\n" only, as the protocol frames them.
export { textLines } from './lib/text-lines.js';
// Sizes in messages (`10 MiB`), written the same way by core and plugins.
export { formatBytes } from './mcp/ndjson-transport.js';
// For plugins that call a service with fetch: a capped body, and the reason a request failed.
export { fetchFailureReason, readCappedText } from './lib/fetch-answer.js';
// Fixed-window counts per key, bounded in keys: for a plugin that must limit what a peer sends.
export { RateLimiter, type RateDecision } from './http/rate-limit.js';

/**
 * Declares a plugin. An identity function: it exists so that the object is type-checked
 * against the contract where it is written. From the object it infers `ctx.config` (from a
 * literal `configSchema`), the codes `ctx.error` accepts (the keys of `errors`, and core's),
 * the names `ctx.api` accepts (`requires`, `uses`) and the plugin's API (what `setup` returns).
 * Write no type arguments: they are all inferred.
 */
export function definePlugin<
  const ConfigSchema extends JsonSchema = Record<never, never>,
  Api = unknown,
  Codes extends string = never,
  const Requires extends string = never,
  const Uses extends string = never,
>(
  plugin: PluginDefinition<ConfigType<ConfigSchema>, Api, Codes, Requires, ConfigSchema, Uses>,
): PluginDefinition<ConfigType<ConfigSchema>, Api, Codes, Requires, ConfigSchema, Uses> {
  return plugin;
}
