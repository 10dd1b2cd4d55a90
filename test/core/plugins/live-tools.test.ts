import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { stringify } from 'yaml';
import { ListChangedNotices } from '../../../core/sessions/list-changed.js';
import { SessionRegistry } from '../../../core/sessions/sessions.js';
import { FIXTURE_REGISTRY, memoryClient, NOTIFY_REGISTRY, recordNotifications, resultJson, startGateway, tempDir, waitFor, type Received } from '../../helpers.js';

const LIST_CHANGED = 'notifications/tools/list_changed';

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return result.structuredContent as any;
}

const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);

describe('tools added and removed at run time (ctx.live.tool)', async () => {
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, NOTIFY_REGISTRY], plugins: { echo: {}, notify: {} } });
  const changer = await memoryClient(gateway, 'changer');
  const watcher = await memoryClient(gateway, 'watcher');
  const inboxes: Received[][] = [recordNotifications(changer), recordNotifications(watcher)];
  const listChanges = () => inboxes.map((inbox) => inbox.filter((n) => n.method === LIST_CHANGED).length);

  it('adds a tool every session is told of, sees in tools/list and can call', async () => {
    assert.equal((await toolNames(watcher)).includes('live_one'), false);
    assert.deepEqual(await call(changer, 'notify_add_tool', { name: 'live_one' }), { added: 'live_one' });
    await waitFor(() => listChanges().every((n) => n === 1));
    assert.ok((await toolNames(watcher)).includes('live_one'));
    const result = await watcher.callTool({ name: 'live_one', arguments: { n: 7 } });
    assert.deepEqual(resultJson(result), { name: 'live_one', live: true, n: 7 });
    const status = (await call(watcher, 'gateway_status')) as { plugins: Array<{ name: string; tools: string[] }>; toolCount: number };
    assert.ok(status.plugins.find((p) => p.name === 'notify')!.tools.includes('live_one'));
  });

  it('checks a run-time tool like a setup one: a bad or taken name is TOOL_DEFINITION_INVALID, and nothing changes', async () => {
    for (const name of ['Bad-Name', 'echo', 'live_one']) {
      const result = await changer.callTool({ name: 'notify_add_tool', arguments: { name } });
      assert.equal(result.isError, true);
      assert.equal(resultJson(result).code, 'TOOL_DEFINITION_INVALID', name);
    }
    assert.equal(gateway.catalog.get('echo')?.plugin, 'echo');
  });

  it('removes it: sessions are told, tools/list drops it, a call is UNKNOWN_TOOL', async () => {
    const before = listChanges();
    assert.deepEqual(await call(changer, 'notify_remove_tool', { name: 'live_one' }), { removed: true });
    await waitFor(() => listChanges().every((n, i) => n === before[i]! + 1));
    assert.equal((await toolNames(watcher)).includes('live_one'), false);
    await assert.rejects(watcher.callTool({ name: 'live_one', arguments: {} }), (err: any) => {
      assert.equal(err.code, -32602);
      assert.equal(err.data.code, 'UNKNOWN_TOOL');
      return true;
    });
  });

  it('refuses a late ctx.tool with PLUGIN_SETUP_OVER naming ctx.live.tool, and adds nothing', async () => {
    const { code, message } = await call(changer, 'notify_late_tool');
    assert.equal(code, 'PLUGIN_SETUP_OVER');
    assert.match(message, /Plugin "notify" called ctx\.tool\("notify_too_late"\) after its setup was over; use ctx\.live\.tool/);
    assert.equal(gateway.catalog.get('notify_too_late'), undefined);
  });

  it('removes what a plugin added at run time when the plugin closes', async () => {
    await call(changer, 'notify_add_tool', { name: 'live_two' });
    assert.ok(gateway.catalog.get('live_two'));
    await gateway.close();
    assert.equal(gateway.catalog.get('live_two'), undefined);
    assert.ok(gateway.catalog.get('notify_send'), 'setup tools stay: only run-time entries are the closer\'s');
  });
});

describe('a plugin whose setup failed', async () => {
  const dir = tempDir();
  const registry = join(dir, 'registry');
  mkdirSync(registry);
  writeFileSync(
    join(dir, 'broken.mjs'),
    `export default { name: 'broken', version: '1.0.0', description: 'fails its setup',
      setup(ctx) {
        globalThis.__brokenCtx = ctx;
        ctx.live.tool({ name: 'broken_early', description: 'added before the failure', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, () => 1);
        throw new Error('setup fails on purpose');
      } };\n`,
  );
  writeFileSync(join(registry, 'broken.yaml'), stringify({ name: 'broken', module: '../broken.mjs', optional: true }));
  const gateway = await startGateway({ registries: [FIXTURE_REGISTRY, registry], plugins: { echo: {}, broken: {} } }, dir);
  const ctx = (globalThis as any).__brokenCtx;
  const definition = { name: 'broken_late', description: 'too late', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };

  it('is skipped, and what it added live before failing is gone', () => {
    assert.deepEqual(gateway.plugins.skipped.map((s) => s.name), ['broken']);
    assert.equal(gateway.catalog.get('broken_early'), undefined);
  });

  it('gets PLUGIN_SETUP_OVER from ctx.tool and PLUGIN_CLOSED from ctx.live.tool; nothing joins the catalog', () => {
    assert.throws(() => ctx.tool(definition, () => 1), (err: any) => err.code === 'PLUGIN_SETUP_OVER' && /ctx\.live\.tool/.test(err.message));
    assert.throws(() => ctx.live.tool(definition, () => 1), (err: any) => err.code === 'PLUGIN_CLOSED' && /Plugin "broken" is closed/.test(err.message));
    assert.equal(gateway.catalog.get('broken_late'), undefined);
  });
});

describe('list_changed notices', () => {
  it('go once per event-loop turn per kind, to ready sessions only', async () => {
    const sessions = new SessionRegistry();
    const sent: string[] = [];
    for (const [name, ready] of [['a', true], ['b', true], ['opening', false]] as const) {
      Object.assign(sessions.open('memory', name), { ready, notify: (n: { method: string }) => sent.push(`${name} ${n.method}`) });
    }
    const notices = new ListChangedNotices(sessions);
    notices.changed('tools');
    notices.changed('tools');
    await Promise.resolve();
    notices.changed('tools');
    notices.changed('prompts');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sent.sort(), ['a notifications/prompts/list_changed', 'a notifications/tools/list_changed', 'b notifications/prompts/list_changed', 'b notifications/tools/list_changed']);
    notices.changed('tools');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent.filter((s) => s === 'a notifications/tools/list_changed').length, 2);
  });
});
