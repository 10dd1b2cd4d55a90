import { GatewayError } from '../contract/errors.js';
import type { PromptCatalog } from '../catalog/prompt-catalog.js';
import type { ResourceCatalog } from '../catalog/resource-catalog.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';
import type { PromptGetter, ResourceReader } from '../contract/content-types.js';
import type { PluginLive, ToolHandler } from '../contract/plugin-types.js';

/** The catalogs run-time entries join. */
export interface LiveCatalogs {
  readonly catalog: ToolCatalog;
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
}

/** `ctx.live` of one plugin, and what its scope needs to clean up after it. */
export interface LiveEntries {
  readonly api: PluginLive;
  /** Removes every entry the plugin added and has not removed itself (the plugin is closing). */
  removeAll(): void;
}

/**
 * Run-time entries of one plugin. Every kind follows the same steps: refuse once the plugin is
 * closed, check and compile the entry as at setup, add it to its catalog (whose change
 * listener announces `list_changed`), and return a remover that is tracked, so entries still
 * there are removed when the plugin closes.
 */
export function createLiveEntries(plugin: string, catalogs: LiveCatalogs, isClosed: () => boolean): LiveEntries {
  const { catalog, resources, prompts } = catalogs;
  const removers = new Set<() => void>();

  const refuseWhenClosed = () => {
    if (isClosed()) {
      throw new GatewayError(
        'PLUGIN_CLOSED',
        `Plugin "${plugin}" is closed (its setup failed, or the gateway is shutting down): ctx.live adds nothing more.`,
      );
    }
  };

  /** Tracks `remove` until it runs once, by the plugin or at close. */
  const track = (remove: () => void): (() => void) => {
    let removed = false;
    const removeOnce = () => {
      if (removed) return;
      removed = true;
      removers.delete(removeOnce);
      remove();
    };
    removers.add(removeOnce);
    return removeOnce;
  };

  const api: PluginLive = {
    tool(definition, handler) {
      refuseWhenClosed();
      const tool = catalog.prepare(plugin, definition, handler as ToolHandler<never>);
      catalog.add([tool]);
      return track(() => catalog.remove(tool));
    },
    resource(definition, reader) {
      refuseWhenClosed();
      const resource = resources.prepare(plugin, definition, reader as ResourceReader);
      resources.add([resource]);
      return track(() => resources.remove([resource]));
    },
    prompt(definition, getter) {
      refuseWhenClosed();
      const prompt = prompts.prepare(plugin, definition, getter as PromptGetter<never>);
      prompts.add([prompt]);
      return track(() => prompts.remove([prompt]));
    },
  };

  return {
    api,
    removeAll: () => {
      for (const remove of [...removers]) remove();
    },
  };
}
