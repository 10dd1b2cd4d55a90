import type { Client, Prompt } from '@modelcontextprotocol/client';
import type { PromptDefinition, PromptMessage } from '@mcp-gateway/core';
import { askCompletions } from './completions.js';
import { gatewayName } from './names.js';
import { cursorParams, listAll } from './paging.js';
import type { MirrorEntry } from './mirror.js';
import type { ServerLink } from './server-link.js';

/** Every prompt the server lists (all pages), or none when it offers no prompts. */
export async function listPrompts(client: Client): Promise<Prompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return listAll(async (cursor) => {
    const { prompts, nextCursor } = await client.request({ method: 'prompts/list', params: cursorParams(cursor) });
    return { items: prompts, nextCursor };
  });
}

/** The gateway's entries for a server's prompts, named like its tools (prefix, snake_case). */
export function promptEntries(link: ServerLink, prompts: readonly Prompt[]): MirrorEntry[] {
  const completes = link.server.capabilities()?.completions !== undefined;
  return prompts.map((prompt) => {
    const args = prompt.arguments ?? [];
    const definition: PromptDefinition = {
      name: gatewayName(link.prefix, prompt.name),
      ...(prompt.title === undefined ? {} : { title: prompt.title }),
      description: prompt.description?.trim() || `Prompt "${prompt.name}" of the upstream server "${link.config.name}".`,
      arguments: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(args.map((a) => [a.name, { type: 'string', ...(a.description ? { description: a.description } : {}) }])),
        required: args.filter((a) => a.required).map((a) => a.name),
      },
      timeoutMs: link.limitMs,
      ...(completes && args.length > 0 ? { complete: askCompletions(link, { type: 'ref/prompt', name: prompt.name }, args.map((a) => a.name)) } : {}),
    };
    return {
      upstream: prompt.name,
      name: definition.name,
      fingerprint: JSON.stringify(definition),
      add: () =>
        link.ctx.live.prompt<Record<string, string>>(definition, async (values, call) => {
          const result = await link.request(call, (client, options) => client.getPrompt({ name: prompt.name, arguments: values }, options));
          return result.messages as PromptMessage[];
        }),
    };
  });
}
