import type { Completer } from '@mcp-gateway/core';
import type { ServerLink } from './server-link.js';

/** What a completion is for: one of the server's prompts, or one of its resource templates. */
type CompletionRef = { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

/** A completer per argument (or template variable) in `names`, each asking the server (`completion/complete`). */
export function askCompletions(link: ServerLink, ref: CompletionRef, names: readonly string[]): Record<string, Completer> {
  const completers: Record<string, Completer> = {};
  for (const name of names) {
    completers[name] = async (value, context) => {
      const result = await link.request(context, (client, options) =>
        client.complete({ ref: { ...ref }, argument: { name, value }, context: { arguments: { ...context.arguments } } }, options),
      );
      return result.completion.values;
    };
  }
  return completers;
}
