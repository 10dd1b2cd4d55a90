/**
 * The public plugin API of mcp-gateway: everything a plugin (in this repository or in its
 * own package) may import. Plugins never reach into other core files.
 */
import type { PluginDefinition } from './plugins/plugin-types.js';
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
} from './plugins/route-types.js';
export { httpResponse, type HttpResponse, type HttpResponseOptions } from './http/route-response.js';

export type {
  CallContext,
  Caller,
  ClientRequestOptions,
  ElicitationParams,
  ElicitationResult,
  McpLogLevel,
  NotifyTarget,
  PluginContext,
  PluginNotify,
  PluginDatabase,
  PluginDefinition,
  PluginEvents,
  PluginLive,
  ProgressUpdate,
  SamplingParams,
  SamplingResult,
  ToolAnnotations,
  ToolDefinition,
  ToolHandler,
  TransportKind,
} from './plugins/plugin-types.js';
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
} from './plugins/content-types.js';
export type { Breaker, BreakerOptions, BreakerState, BreakerStatus } from './breaker.js';
export type { ErrorSpec } from './errors.js';
export type { EventHandler, GatewayEvent } from './events.js';
export type { Logger } from './logger.js';
export { closedObject, type JsonSchema } from './catalog/schema.js';
export type { Migration } from './storage/storage.js';
export type { Workspace, WorkspaceOptions } from './workspace.js';
export { GatewayError, isGatewayError } from './errors.js';
export { audioBlock, imageBlock, resourceBlock, textBlock, toolContent, type ToolContent } from './catalog/tool-result.js';
export { createWorkspace } from './workspace.js';

// Embedding and testing: boot a gateway in process, e.g. to test a plugin with a real SDK
// client over the in-memory transport (see docs/writing-a-plugin.md).
export type { GatewayConfig } from './config.js';
export type { Gateway } from './gateway.js';
export { loadConfig, resolveConfig } from './config.js';
export { createGateway } from './gateway.js';

/**
 * Declares a plugin. An identity function: it exists so that the object is type-checked
 * against the contract (and `ctx.config` typed) where it is written.
 */
export function definePlugin<Config = Record<string, unknown>, Api = unknown>(
  plugin: PluginDefinition<Config, Api>,
): PluginDefinition<Config, Api> {
  return plugin;
}
