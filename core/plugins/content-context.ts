import { GatewayError } from '../errors.js';
import type { PromptCatalog, RegisteredPrompt } from '../catalog/prompt-catalog.js';
import type { RegisteredResource, ResourceCatalog } from '../catalog/resource-catalog.js';
import type { ResourceSubscriptions } from '../mcp/resource-subscriptions.js';
import type { PromptDefinition, PromptGetter, ResourceDefinition, ResourceReader } from './content-types.js';
import type { PluginContext } from './plugin-types.js';

/** What core gives a plugin's resource and prompt contributions. */
export interface ContentServices {
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly subscriptions: ResourceSubscriptions;
}

/** A plugin's resources and prompts: the ctx methods, and what the host does after setup. */
export interface ContentScope {
  readonly ctx: Pick<PluginContext, 'resource' | 'prompt' | 'resourceUpdated'>;
  readonly live: Pick<PluginContext['live'], 'resource' | 'prompt'>;
  /** Resources and prompts recorded during setup. */
  readonly resources: RegisteredResource[];
  readonly prompts: RegisteredPrompt[];
  /**
   * Adds what setup recorded to the catalogs, all or nothing (a clash throws and adds none),
   * and ends the setup phase: from now on ctx.resource and ctx.prompt throw PLUGIN_SETUP_OVER.
   * Returns the undo, for when something after it fails.
   */
  commit(): () => void;
}

/**
 * The resource and prompt side of a plugin's ctx. During setup, `ctx.resource` and
 * `ctx.prompt` record entries that join the catalogs only if setup succeeds; at run time,
 * `ctx.live.resource` and `ctx.live.prompt` add one at once and return its removal, which
 * also runs when the plugin closes. `closers` is the plugin's list of cleanups.
 */
export function createContentScope(plugin: string, core: ContentServices, closers: Array<() => unknown>, lifetime: AbortSignal): ContentScope {
  const resources: RegisteredResource[] = [];
  const prompts: RegisteredPrompt[] = [];
  let setupOver = false;
  const late = (kind: 'resource' | 'prompt') =>
    new GatewayError('PLUGIN_SETUP_OVER', `Plugin "${plugin}" called ctx.${kind}(...) after its setup had resolved; use ctx.live.${kind}(...) to add entries at run time.`);

  /** Adds entries now; the returned removal runs at most once, and at the latest when the plugin closes. */
  const goLive = <T>(entries: T[], catalog: { add(e: T[]): void; remove(e: T[]): void }): (() => void) => {
    if (lifetime.aborted) throw new GatewayError('SHUTTING_DOWN', `Plugin "${plugin}" is closing; it cannot add entries any more.`);
    catalog.add(entries);
    let removed = false;
    const remove = () => {
      if (removed) return;
      removed = true;
      catalog.remove(entries);
    };
    closers.push(remove);
    return remove;
  };

  return {
    resources,
    prompts,
    ctx: {
      resource(definition: ResourceDefinition, reader: ResourceReader) {
        if (setupOver) throw late('resource');
        const resource = core.resources.prepare(plugin, definition, reader);
        if (resources.some((r) => r.key === resource.key)) {
          throw new GatewayError('RESOURCE_DEFINITION_INVALID', `Plugin "${plugin}" records resource "${resource.key}" twice.`);
        }
        resources.push(resource);
      },
      prompt(definition: PromptDefinition, getter: PromptGetter<never>) {
        if (setupOver) throw late('prompt');
        const prompt = core.prompts.prepare(plugin, definition, getter);
        if (prompts.some((p) => p.listing.name === prompt.listing.name)) {
          throw new GatewayError('PROMPT_DEFINITION_INVALID', `Plugin "${plugin}" records prompt "${prompt.listing.name}" twice.`);
        }
        prompts.push(prompt);
      },
      resourceUpdated(uri: string) {
        const found = core.resources.resolve(uri);
        if (found?.resource.plugin !== plugin) {
          throw new GatewayError('RESOURCE_NOT_FOUND', `Plugin "${plugin}" announced an update of "${uri}", which none of its resources serves.`);
        }
        core.subscriptions.updated(uri);
      },
    },
    live: {
      resource: (definition: ResourceDefinition, reader: ResourceReader) => goLive([core.resources.prepare(plugin, definition, reader)], core.resources),
      prompt: (definition: PromptDefinition, getter: PromptGetter<never>) => goLive([core.prompts.prepare(plugin, definition, getter)], core.prompts),
    },
    commit() {
      core.resources.add(resources);
      try {
        core.prompts.add(prompts);
      } catch (err) {
        core.resources.remove(resources);
        throw err;
      }
      setupOver = true;
      return () => {
        core.resources.remove(resources);
        core.prompts.remove(prompts);
      };
    },
  };
}
