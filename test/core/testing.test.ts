// mcp-gateway/testing: what a plugin package's tests use instead of core internals.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { startTestGateway } from '../../core/testing.js';
import { FIXTURE_REGISTRY, NOTES_REGISTRY, resultJson } from '../helpers.js';

describe('mcp-gateway/testing', () => {
  it('is the package export "./testing", and the main entry no longer exports the Gateway', async () => {
    const testing = await import('mcp-gateway/testing');
    assert.equal(typeof testing.startTestGateway, 'function');
    const main = (await import('mcp-gateway')) as Record<string, unknown>;
    assert.equal(typeof main.definePlugin, 'function');
    for (const internal of ['createGateway', 'resolveConfig', 'loadConfig']) assert.equal(main[internal], undefined, internal);
  });

  it('boots the given plugins with their config, serves a client, REST and status, and cleans up', async () => {
    const test = await startTestGateway({ registries: [NOTES_REGISTRY], plugins: { notes: { config: { maxNotes: 2 } } } });
    try {
      const { tools } = await test.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ['gateway_call_tool', 'gateway_find_tools', 'gateway_status', 'note_add', 'note_delete', 'note_list']);

      const added = await test.client.callTool({ name: 'note_add', arguments: { text: 'one' } });
      assert.equal(resultJson(added).text, 'one');
      assert.equal(resultJson(added).author, 'mcp-gateway-test');

      const other = await test.connect('second-client');
      assert.equal(resultJson(await other.callTool({ name: 'note_add', arguments: { text: 'two' } })).author, 'second-client');

      const rest = await test.rest('POST', '/tools/note_list', {});
      assert.equal(rest.status, 200);
      assert.deepEqual(rest.body.data.notes.map((n: { text: string }) => n.text), ['two', 'one']);
      const refused = await test.rest('POST', '/tools/note_delete', { id: 99 });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error.code, 'NOTE_NOT_FOUND');

      assert.deepEqual(test.status().plugins.map((p) => p.name), ['notes']);
      assert.ok(existsSync(test.workspace) && existsSync(test.dataDir));
    } finally {
      await test.close();
    }
    assert.equal(existsSync(test.workspace), false);
    assert.equal(existsSync(test.dataDir), false);
  });

  it('rejects with the boot error and its code', async () => {
    await assert.rejects(startTestGateway({ registries: [FIXTURE_REGISTRY], plugins: { echo: { config: { prefx: '>' } } } }), (err: any) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.echo\.config: unknown key "prefx"/);
      return true;
    });
  });

  it('reads the built-in registry only when asked', async () => {
    await assert.rejects(startTestGateway({ registries: [], plugins: { files: {} } }), /no plugin "files" in the registry/);
    const test = await startTestGateway({ registries: [], plugins: { files: {} }, builtinRegistry: true });
    try {
      assert.ok((await test.client.listTools()).tools.some((t) => t.name === 'file_read'));
    } finally {
      await test.close();
    }
  });
});
