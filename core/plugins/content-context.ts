import { GatewayError } from '../contract/errors.js';
import type { PromptCatalog, RegisteredPrompt } from '../catalog/prompt-catalog.js';
import type { RegisteredResource, ResourceCatalog } from '../catalog/resource-catalog.js';
import type { ResourceSubscriptions } from '../sessions/resource-subscriptions.js';
import type { PromptDefinition, PromptGetter, ResourceDefinition, ResourceReader } from '../contract/content-types.js';
import type { PluginContext } from '../contract/plugin-types.js';

/** What core gives a plugin's resource and prompt contributions. */
export interface ContentServices {
  readonly resources: ResourceCatalog;
  readonly prompts: PromptCatalog;
  readonly subscriptions: ResourceSubscriptions;
}

/** A plugin's resources and prompts: the ctx methods, and what the host does after setup. */
export interface ContentScope {
  readonly ctx: Pick<PluginContext, 'resource' | 'prompt' | 'resourceUpdated'>;
  /** Resources and prompts recorded during setup. */
  readonly resources: RegisteredResource[];
  readonly prompts: RegisteredPrompt[];
  /**
   * Adds what setup recorded to the catalogs, all or nothing (a clash throws and adds none).
   * Returns the undo, for when something after it fails.
   */
  commit(): () => void;
}

/**
 * The resource and prompt side of a plugin's ctx during setup: `ctx.resource` and `ctx.prompt`
 * record entries that join the catalogs only if setup succeeds (run-time entries are
 * `ctx.live`'s, in plugin-live.ts). `setupOver` tells when recording is no longer allowed.
 */
export function createContentScope(plugin: string, core: ContentServices, setupOver: () => boolean): ContentScope {
  const resources: RegisteredResource[] = [];
  const prompts: RegisteredPrompt[] = [];
  const late = (kind: 'resource' | 'prompt') =>
    new GatewayError('PLUGIN_SETUP_OVER', `Plugin "${plugin}" called ctx.${kind}(...) after its setup was over; use ctx.live.${kind}(...) to add entries at run time.`);

  return {
    resources,
    prompts,
    ctx: {
      resource(definition: ResourceDefinition, reader: ResourceReader) {
        if (setupOver()) throw late('resource');
        const resource = core.resources.prepare(plugin, definition, reader);
        if (resources.some((r) => r.key === resource.key)) {
          throw new GatewayError('RESOURCE_DEFINITION_INVALID', `Plugin "${plugin}" records resource "${resource.key}" twice.`);
        }
        resources.push(resource);
      },
      prompt(definition: PromptDefinition, getter: PromptGetter<never>) {
        if (setupOver()) throw late('prompt');
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
    commit() {
      core.resources.add(resources);
      try {
        core.prompts.add(prompts);
      } catch (err) {
        core.resources.remove(resources);
        throw err;
      }
      return () => {
        core.resources.remove(resources);
        core.prompts.remove(prompts);
      };
    },
  };
}
