// Every collab answer that lists something that can grow is paged or bounded, and every
// argument that collab stores is bounded by its schema (issue 34, item 3).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { insertLock, insertTask } from './collab-rows.js';
import { collabGateway } from './collab-helpers.js';

/** Follows `next` from page to page; answers every page's names. */
async function pages(fetch: (from: unknown) => Promise<{ names: string[]; next: unknown }>): Promise<string[][]> {
  const out: string[][] = [];
  let from: unknown;
  do {
    const page = await fetch(from);
    out.push(page.names);
    from = page.next;
  } while (from !== undefined && from !== null);
  return out;
}

describe('collab lists: paged', () => {
  it('collab_list_agents: limit and cursor, by name; with capability a page holds the matches among the agents it looked at', async () => {
    const c = await collabGateway();
    for (const [name, capabilities] of [['ada', ['go']], ['bea', []], ['cid', ['go']], ['dan', []], ['eve', ['go']]] as const) {
      await c.call('collab_register_agent', { name, capabilities });
    }
    const list = (args: Record<string, unknown>) => async (cursor: unknown) => {
      const page = await c.call('collab_list_agents', { ...args, ...(cursor ? { cursor } : {}) });
      return { names: page.agents.map((a: any) => a.name), next: page.next_cursor };
    };
    assert.deepEqual(await pages(list({ limit: 2 })), [['ada', 'bea'], ['cid', 'dan'], ['eve']]);
    assert.deepEqual(await pages(list({ limit: 2, capability: 'go' })), [['ada'], ['cid'], ['eve']]);
    assert.deepEqual((await c.call('collab_list_agents', {})).agents.length, 5, 'the default page is 100');
    assert.equal((await c.fail('collab_list_agents', { limit: 501 })).code, 'INVALID_ARGUMENTS');
  });

  it('collab_list_locks: limit and offset, oldest first; collab_session_context shows 50 of an agent\'s locks', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'alice' });
    for (let n = 10; n < 70; n++) await insertLock(c, { path: `src/f${n}.ts`, agent: 'alice', expiresInMs: 600_000 });
    const list = async (offset: unknown) => {
      const page = await c.call('collab_list_locks', { limit: 25, offset: offset ?? 0 });
      return { names: page.locks.map((l: any) => l.path), next: page.next_offset };
    };
    const all = await pages(list);
    assert.deepEqual(all.map((page) => page.length), [25, 25, 10]);
    assert.deepEqual(all.flat(), Array.from({ length: 60 }, (_, i) => `src/f${i + 10}.ts`));
    assert.equal((await c.call('collab_list_locks', {})).count, 60, 'the default page is 100');
    const context = await c.call('collab_session_context', {});
    assert.deepEqual([context.locks.length, context.locks[0].path], [50, 'src/f10.ts']);
  });

  it('collab_get_task lists 50 dependents and counts them all; collab_list_tasks {depends_on} pages through them', async () => {
    const c = await collabGateway();
    await c.call('collab_join', { name: 'lead' });
    const { task: base } = await c.call('collab_create_task', { title: 'Base' });
    for (let n = 0; n < 55; n++) await c.call('collab_create_task', { title: `Needs base ${n}`, depends_on: [base.id] });
    await insertTask(c, { title: 'Unrelated', assignee: 'any', status: 'pending' });
    const got = await c.call('collab_get_task', { id: base.id });
    assert.deepEqual([got.dependents.length, got.dependents_total, got.dependents[0].title], [50, 55, 'Needs base 0']);
    const list = async (cursor: unknown) => {
      const page = await c.call('collab_list_tasks', { depends_on: base.id, limit: 50, ...(cursor ? { cursor } : {}) });
      return { names: page.tasks.map((t: any) => t.title), next: page.next_cursor };
    };
    const all = await pages(list);
    assert.deepEqual(all.map((page) => page.length), [50, 5]);
    assert.ok(all.flat().every((title) => title.startsWith('Needs base')));
  });
});

describe('collab arguments: bounded', () => {
  it('every string a collab tool takes has a maxLength (or a bounded pattern), every list a maxItems', async () => {
    const c = await collabGateway();
    const unbounded: string[] = [];
    const walk = (schema: unknown, path: string): void => {
      if (schema === null || typeof schema !== 'object') return;
      const s = schema as Record<string, unknown>;
      const boundedPattern = typeof s.pattern === 'string' && /\{\d*,?\d+\}\$$/.test(s.pattern);
      if (s.type === 'string' && s.maxLength === undefined && !boundedPattern && s.enum === undefined && s.const === undefined) unbounded.push(path);
      if (s.type === 'array' && s.maxItems === undefined) unbounded.push(path);
      for (const [key, value] of Object.entries(s)) if (key !== 'examples') walk(value, `${path}.${key}`);
    };
    const tools = c.tools().filter((t) => t.plugin === 'collab');
    assert.ok(tools.length >= 30);
    for (const tool of tools) walk(tool.definition.inputSchema, tool.name);
    assert.deepEqual(unbounded, []);
  });
});
