import type { ConfigType, ContextOf } from '@mcp-gateway/core';
import { fileErrors } from './errors.js';
import type { Sandbox } from './sandbox.js';
import type { SearchWorkers } from './search.js';

export const MiB = 1024 * 1024;

/** The plugin's section of gateway.config.yaml; `FilesConfig` is inferred from it. */
export const configSchema = {
  type: 'object',
  properties: {
    roots: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      default: [],
      description: "Sandbox roots; relative ones are relative to the gateway's workspace. Default: the workspace.",
    },
    maxReadBytes: { type: 'integer', minimum: 1, default: 5 * MiB },
    maxWriteBytes: { type: 'integer', minimum: 1, default: 5 * MiB },
    maxWalkEntries: {
      type: 'integer',
      minimum: 1,
      default: 100_000,
      description: 'Entries dir_tree and file_find visit at most, so one call cannot walk a whole disk.',
    },
    maxSearchFileBytes: { type: 'integer', minimum: 1, default: 2 * MiB, description: 'Files larger than this are skipped by file_search.' },
    listingCacheEntries: {
      type: 'integer',
      minimum: 0,
      default: 20_000,
      description: "Entries of unchanged folders' listings dir_list keeps, all folders together (about 110 bytes each); 0 keeps none.",
    },
  },
} as const;

export type FilesConfig = ConfigType<typeof configSchema>;

/**
 * The plugin's definition but for `setup` (index.ts spreads it in), so that the tools can
 * type their `ctx` from it: the plugin's own type is inferred from `setup`, which calls them.
 */
export const declared = {
  name: 'files',
  version: '0.1.0',
  description: 'Sandboxed file tools: read, write, edit, list, find and search files under allowed roots, and detect languages.',
  configSchema,
  errors: fileErrors,
} as const;

/** The `ctx` the plugin's setup gets. */
export type FilesPluginContext = ContextOf<typeof declared>;

/** What every tool group of the plugin gets. */
export interface FilesContext {
  readonly ctx: FilesPluginContext;
  readonly sandbox: Sandbox;
  /** file_search's worker threads, one kept warm between calls. */
  readonly searches: SearchWorkers;
  readonly config: Readonly<FilesConfig>;
}
