import type { Server } from '@modelcontextprotocol/server';
import { contentRequest, failedContent, guarded, type ContentDeps, type ContentSession } from './mcp-content.js';
import { rpcFailure } from '../sessions/rpc-failure.js';

/**
 * Answers prompts/list, prompts/get and completion/complete (for prompt arguments and resource
 * template variables) on one session, showing only the plugins the session's key may use.
 */
export function servePrompts(server: Server, deps: ContentDeps, context: ContentSession): void {
  const { prompts, resources, errors } = deps;

  server.setRequestHandler('prompts/list', () => ({ prompts: prompts.listings(context.allowsPlugin) }));

  server.setRequestHandler(
    'prompts/get',
    guarded(deps, 'prompts/get', async ({ params }, ctx) => {
      const asking = context.asking?.(ctx, 'prompts/get', params.name, params.arguments);
      const outcome = await prompts.render(params.name, params.arguments, contentRequest(context, ctx, asking));
      return outcome.ok ? outcome.value : failedContent(asking, outcome.error, errors);
    }),
  );

  server.setRequestHandler(
    'completion/complete',
    guarded(deps, 'completion/complete', async ({ params }, ctx) => {
      const { ref, argument } = params;
      const args = params.context?.arguments ?? {};
      const request = contentRequest(context, ctx);
      const outcome =
        ref.type === 'ref/prompt'
          ? await prompts.complete(ref.name, argument.name, argument.value, args, request)
          : await resources.complete(ref.uri, argument.name, argument.value, args, request);
      if (!outcome.ok) throw rpcFailure(outcome.error, errors);
      return { completion: outcome.value };
    }),
  );
}
