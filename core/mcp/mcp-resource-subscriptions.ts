import type { Server } from '@modelcontextprotocol/server';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import type { RegisteredResource } from '../catalog/resource-definition.js';
import { notFound } from '../catalog/resource-catalog.js';
import { guarded, type ContentDeps } from './mcp-content.js';
import { rpcFailure } from '../sessions/rpc-failure.js';
import type { SessionInfo } from '../sessions/sessions.js';

/** Subscriptions one session may hold: each is a URI kept in memory until the session ends. */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;

/**
 * Answers resources/subscribe and resources/unsubscribe on one 2025-era session (the 2026-07-28
 * revision has `subscriptions/listen` instead), for the plugins the session's key may use.
 * Returns the cleanup for when the session closes (its subscriptions end).
 */
export function serveResourceSubscriptions(server: Server, deps: ContentDeps, session: SessionInfo, allowsPlugin?: (plugin: string) => boolean): () => void {
  const { resources, subscriptions, errors } = deps;
  let closed = false;

  server.setRequestHandler(
    'resources/subscribe',
    guarded(deps, 'resources/subscribe', async ({ params: { uri } }) => {
      const found = resolveOrFail(deps, uri);
      if (allowsPlugin?.(found.plugin) === false) {
        throw rpcFailure(new GatewayError('FORBIDDEN', `This session's API key has no scope for the resources of plugin ${found.plugin}.`), errors);
      }
      const held = subscriptions.of(session);
      if (!held.includes(uri) && held.length >= MAX_SUBSCRIPTIONS_PER_SESSION) {
        const message = `A session holds at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resource subscriptions; unsubscribe from some first.`;
        throw rpcFailure(new GatewayError('INVALID_PARAMS', message), errors);
      }
      // The first subscriber of a URI tells its entry (an upstream subscribes in turn); a refusal
      // there refuses this subscription.
      const { onSubscribe } = found.definition;
      if (onSubscribe) {
        try {
          await subscriptions.beforeFirst(uri, () => onSubscribe(uri));
        } catch (err) {
          throw rpcFailure(hookFailure('resources/subscribe', err, deps), errors);
        }
      }
      // A session that closed meanwhile must not hold a subscription nothing would ever end.
      if (closed) {
        lastGone(deps, [uri]);
        return {};
      }
      subscriptions.subscribe(session, uri);
      return {};
    }),
  );

  server.setRequestHandler(
    'resources/unsubscribe',
    guarded(deps, 'resources/unsubscribe', async ({ params: { uri } }) => {
      // Unsubscribing from a URI the session does not hold is not an error: the end state is
      // the one asked for. A URI that is not a URI still is.
      try {
        resources.resolve(uri);
      } catch (err) {
        throw rpcFailure(err as GatewayError, errors);
      }
      // Only the session's own last subscription tells the entry: unsubscribing from a URI it
      // did not hold changes nothing.
      if (subscriptions.unsubscribe(session, uri)) lastGone(deps, [uri]);
      return {};
    }),
  );

  return () => {
    closed = true;
    lastGone(deps, subscriptions.forget(session));
  };
}

/** Tells the entries of `uris` that have no subscriber left; best effort (the session may be gone). */
export function lastGone(deps: ContentDeps, uris: readonly string[]): void {
  for (const uri of uris) {
    if (deps.subscriptions.count(uri) > 0) continue;
    const hook = deps.resources.resolve(uri)?.resource.definition.onUnsubscribe;
    if (!hook) continue;
    // Counted again when the hook runs: a session that waited on the same onSubscribe as a
    // session that closed meanwhile subscribes just after it.
    Promise.resolve()
      .then(() => (deps.subscriptions.count(uri) > 0 ? undefined : hook(uri)))
      .catch((err: unknown) => deps.log.warn({ err, uri }, 'a resource entry failed to handle its last unsubscribe'));
  }
}

/** What an entry's refusing onSubscribe answers: its own code when the table knows it, else INTERNAL_ERROR (logged). */
export function hookFailure(method: string, err: unknown, deps: ContentDeps): GatewayError {
  if (isGatewayError(err) && deps.errors.get(err.code)) return err;
  deps.log.error({ err, method }, 'MCP request failed');
  return new GatewayError('INTERNAL_ERROR', `${method} failed unexpectedly; the gateway log has the details.`);
}

/** The plugin serving `uri`, or the JSON-RPC error for a URI that is invalid or unknown. */
function resolveOrFail(deps: ContentDeps, uri: string): RegisteredResource {
  let found;
  try {
    found = deps.resources.resolve(uri);
  } catch (err) {
    throw rpcFailure(err as GatewayError, deps.errors);
  }
  if (!found) throw rpcFailure(notFound(uri), deps.errors, uri);
  return found.resource;
}
