import { GatewayError } from '../errors.js';
import { isPlainObject } from '../json.js';
import { notFound, type ResourceCatalog } from '../catalog/resource-catalog.js';

/**
 * Why a 2026-07-28 `subscriptions/listen` may not watch the resources it names, or undefined:
 * a URI that is not one (INVALID_URI), that no resource serves (RESOURCE_NOT_FOUND), or whose
 * plugin the caller's key or profile does not reach (FORBIDDEN) — what a 2025 session's
 * resources/subscribe is refused for (mcp-resource-subscriptions.ts). The SDK's era entries
 * answer listen themselves, ahead of any Server of the gateway's, so this is asked first.
 */
export function listenRefusal(message: unknown, resources: ResourceCatalog, allowsPlugin?: (plugin: string) => boolean): GatewayError | undefined {
  if (!isPlainObject(message) || message.method !== 'subscriptions/listen' || !isPlainObject(message.params)) return undefined;
  const filter = message.params.notifications;
  const uris = isPlainObject(filter) ? filter.resourceSubscriptions : undefined;
  // Anything malformed is the SDK's to refuse, with the revision's own answer.
  if (!Array.isArray(uris)) return undefined;
  for (const uri of uris) {
    if (typeof uri !== 'string') continue;
    let found;
    try {
      found = resources.resolve(uri);
    } catch (err) {
      return err as GatewayError;
    }
    if (!found) return notFound(uri);
    const { plugin } = found.resource;
    if (allowsPlugin?.(plugin) === false) return new GatewayError('FORBIDDEN', `This API key has no scope for the resources of plugin ${plugin}.`);
  }
  return undefined;
}
