// Reading the collab banner off raw tool results.
import type { Client } from '@modelcontextprotocol/client';

/** The `[collab]` text block of a tool result, if it has one. */
export function bannerOf(result: unknown): string | undefined {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  const banners = content.filter((block) => block.type === 'text' && block.text!.startsWith('[collab]'));
  if (banners.length > 1) throw new Error(`more than one banner: ${JSON.stringify(banners)}`);
  return banners[0]?.text;
}

/** Calls `tool` and answers the banner of its result. */
export async function bannerAfter(client: Client, tool = 'collab_list_agents', args: Record<string, unknown> = {}): Promise<string | undefined> {
  return bannerOf(await client.callTool({ name: tool, arguments: args }));
}

/**
 * The banner news gives the agent's next result. It is worked out (a query) when the news
 * arrives, so a call that races that query carries none yet and takes nothing: call until one
 * carries it.
 */
export async function awaitBanner(client: Client, tries = 200): Promise<string> {
  for (let i = 0; i < tries; i++) {
    const banner = await bannerAfter(client);
    if (banner !== undefined) return banner;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('no banner came');
}
