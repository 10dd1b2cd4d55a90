import type { PluginContext } from '../../core/index.js';
import type { Sandbox } from './sandbox.js';
import type { SearchWorkers } from './search.js';

export interface FilesConfig {
  /** Sandbox roots; relative ones are relative to the gateway's workspace. Default: the workspace. */
  roots: string[];
  maxReadBytes: number;
  maxWriteBytes: number;
  /** Entries dir_tree and file_find visit at most, so one call cannot walk a whole disk. */
  maxWalkEntries: number;
  /** Files larger than this are skipped by file_search. */
  maxSearchFileBytes: number;
  /** Refuse (HARD_LINK_REFUSED) regular files with more than one link: one may be an outside file linked in. */
  refuseHardLinks: boolean;
}

/** What every tool group of the plugin gets. */
export interface FilesContext {
  readonly ctx: PluginContext<FilesConfig>;
  readonly sandbox: Sandbox;
  /** file_search's worker threads, one kept warm between calls. */
  readonly searches: SearchWorkers;
  readonly config: Readonly<FilesConfig>;
}

export const MiB = 1024 * 1024;
