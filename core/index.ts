/**
 * The public plugin API of mcp-gateway: everything a plugin (in this repository or in its
 * own package) may import. Plugins never reach into other core files.
 */
import type { JsonSchema } from './catalog/schema.js';
import type { ConfigType, PluginDefinition } from './plugins/plugin-types.js';

export type {
  CallContext,
  Caller,
  ConfigType,
  ErrorCodeOf,
  PluginApi,
  PluginApis,
  PluginContext,
  PluginDatabase,
  PluginDefinition,
  PluginEvents,
  ProgressUpdate,
  SchemaType,
  ToolAnnotations,
  ToolDefinition,
  ToolHandler,
  TransportKind,
} from './plugins/plugin-types.js';
export type { Breaker, BreakerOptions, BreakerState, BreakerStatus } from './breaker.js';
export type { CoreErrorCode, ErrorSpec } from './errors.js';
export type { EventHandler, GatewayEvent } from './events.js';
export type { Logger } from './logger.js';
export { closedObject, type JsonSchema } from './catalog/schema.js';
export type { Migration } from './storage/storage.js';
export type { Workspace, WorkspaceOptions } from './workspace.js';
export { GatewayError, isGatewayError } from './errors.js';
export { audioBlock, imageBlock, textBlock, toolContent, type ToolContent } from './catalog/tool-result.js';
export { createWorkspace } from './workspace.js';

/**
 * Declares a plugin. An identity function: it exists so that the object is type-checked
 * against the contract where it is written. From the object it infers `ctx.config` (from a
 * literal `configSchema`), the codes `ctx.error` accepts (the keys of `errors`, and core's),
 * the names `ctx.api` accepts (`requires`) and the plugin's API (what `setup` returns).
 * Write no type arguments: they are all inferred.
 */
export function definePlugin<
  const ConfigSchema extends JsonSchema = Record<never, never>,
  Api = unknown,
  Codes extends string = never,
  const Requires extends string = never,
>(
  plugin: PluginDefinition<ConfigType<ConfigSchema>, Api, Codes, Requires, ConfigSchema>,
): PluginDefinition<ConfigType<ConfigSchema>, Api, Codes, Requires, ConfigSchema> {
  return plugin;
}
