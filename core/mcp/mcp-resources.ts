import type { Server } from '@modelcontextprotocol/server';
import { contentRequest, failedContent, guarded, type ContentDeps, type ContentSession } from './mcp-content.js';

/**
 * Answers resources/list, resources/templates/list and resources/read from the resource
 * catalog, showing only the plugins the caller's key may use. Lists are not paginated: every
 * entry comes in the first page. Subscriptions, which only a 2025-era session holds, are
 * served by mcp-resource-subscriptions.ts.
 */
export function serveResources(server: Server, deps: ContentDeps, context: ContentSession): void {
  const { resources, errors } = deps;
  const { allowsPlugin } = context;

  server.setRequestHandler('resources/list', () => ({ resources: resources.resources(allowsPlugin) }));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: resources.templates(allowsPlugin) }));

  server.setRequestHandler(
    'resources/read',
    guarded(deps, 'resources/read', async (request, ctx) => {
      const { uri } = request.params;
      const asking = context.asking?.(ctx, 'resources/read', uri, undefined);
      const outcome = await resources.read(uri, contentRequest(context, ctx, asking));
      return outcome.ok ? { contents: outcome.value } : failedContent(asking, outcome.error, errors, uri);
    }),
  );
}
