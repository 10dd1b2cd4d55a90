import { randomUUID } from 'node:crypto';
import { GatewayError } from '../contract/errors.js';
import { isPlainObject } from '../lib/json.js';
import { notFound } from '../catalog/resource-catalog.js';
import type { RegisteredResource } from '../catalog/resource-definition.js';
import type { ContentDeps } from './mcp-content.js';
import { hookFailure, lastGone } from './mcp-resource-subscriptions.js';
import type { SessionInfo } from '../sessions/sessions.js';

/** A listen refused (the SDK never sees it), or admitted with the release of its hold on the resources. */
export type ListenAdmission = { readonly refusal: GatewayError } | { readonly release: () => void };

/** The resource URIs a 2026-07-28 `subscriptions/listen` names; undefined for any other message. */
export function listenedUris(message: unknown): string[] | undefined {
  if (!isPlainObject(message) || message.method !== 'subscriptions/listen' || !isPlainObject(message.params)) return undefined;
  const filter = message.params.notifications;
  const uris = isPlainObject(filter) ? filter.resourceSubscriptions : undefined;
  // Anything malformed is the SDK's to refuse, with the revision's own answer.
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : undefined;
}

/**
 * What a 2025 session's resources/subscribe does (mcp-resource-subscriptions.ts), for a 2026-07-28
 * listen that names resources, before the SDK's era entry serves it (the entries answer listen
 * themselves, ahead of any Server of the gateway's): a URI that is not one, that no resource
 * serves, or whose plugin the caller may not reach is refused; each entry hears of its URI's
 * first subscriber (its onSubscribe, which may refuse too) and, once `release` is called at the
 * stream's end, of its last. The listen then counts as a subscriber of each URI for the life of
 * its stream; its updates reach it through the SDK's router, not through the holder.
 */
export async function admitListen(uris: readonly string[], deps: ContentDeps, allowsPlugin?: (plugin: string) => boolean): Promise<ListenAdmission> {
  const found: Array<{ uri: string; resource: RegisteredResource }> = [];
  for (const uri of uris) {
    let resolved;
    try {
      resolved = deps.resources.resolve(uri);
    } catch (err) {
      return { refusal: err as GatewayError };
    }
    if (!resolved) return { refusal: notFound(uri) };
    const { plugin } = resolved.resource;
    if (allowsPlugin?.(plugin) === false) return { refusal: new GatewayError('FORBIDDEN', `This API key has no scope for the resources of plugin ${plugin}.`) };
    found.push({ uri, resource: resolved.resource });
  }
  const hooked: string[] = [];
  try {
    for (const { uri, resource } of found) {
      const { onSubscribe } = resource.definition;
      if (onSubscribe) await deps.subscriptions.beforeFirst(uri, () => onSubscribe(uri));
      hooked.push(uri);
    }
  } catch (err) {
    // The entries already told of a first subscriber hear that it is gone.
    lastGone(deps, hooked);
    return { refusal: hookFailure('subscriptions/listen', err, deps) };
  }
  const holder = listenHolder();
  for (const { uri } of found) deps.subscriptions.subscribe(holder, uri);
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      lastGone(deps, deps.subscriptions.forget(holder));
    },
  };
}

/** A listen stream as ResourceSubscriptions counts subscribers; its notifications go through the SDK's router. */
function listenHolder(): SessionInfo {
  return { id: `listen:${randomUUID()}`, transport: 'memory', openedAt: Date.now(), notify: () => {} };
}
