/** Longest list taken from one server, whatever its pages say: a server that pages forever stops here. */
const MAX_ITEMS = 100_000;

/**
 * Every item of a paginated MCP list (tools/list, resources/list...), following `nextCursor`
 * until the server gives none or `max` items have come.
 */
export async function listAll<T>(page: (cursor: string | undefined) => Promise<{ items: readonly T[]; nextCursor?: string }>, max = MAX_ITEMS): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
  } while (cursor !== undefined && items.length < max);
  return items.slice(0, max);
}

/** The request params of one page: none for the first. */
export function cursorParams(cursor: string | undefined): { cursor: string } | undefined {
  return cursor === undefined ? undefined : { cursor };
}
