import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadRegistry } from '../../../core/plugins/registry.js';
import { declaredChannels, importPlugin } from '../../../core/plugins/plugin-module.js';
import { serverCapabilities } from '../../../core/mcp/mcp-session.js';
import { tempDir } from '../../helpers.js';

/** A registry folder with one plain-JS plugin per entry, `channels` its plugin object's (JSON, or absent). */
function registryWith(plugins: Record<string, unknown>): string {
  const dir = join(tempDir(), 'registry');
  mkdirSync(dir);
  for (const [name, channels] of Object.entries(plugins)) {
    const declared = channels === undefined ? '' : `channels: ${JSON.stringify(channels)}, `;
    writeFileSync(join(dir, '..', `${name}.mjs`), `export default { name: '${name}', version: '1.0.0', description: 'd', ${declared}setup() {} };\n`);
    writeFileSync(join(dir, `${name}.yaml`), `name: ${name}\nmodule: ../${name}.mjs\n`);
  }
  return dir;
}

describe('channels in plugin objects', () => {
  it('default to none, and are read in order', async () => {
    const registry = loadRegistry([registryWith({ quiet: undefined, chat: ['chat.messages', 'chat.rooms.updates'] })]);
    assert.equal((await importPlugin(registry.get('quiet')!)).channels, undefined);
    assert.deepEqual((await importPlugin(registry.get('chat')!)).channels, ['chat.messages', 'chat.rooms.updates']);
  });

  const refused: Array<[string, unknown, RegExp]> = [
    ["another plugin's prefix", ['other.messages'], /channels: "other\.messages" must start with the plugin's name, "demo\."/],
    ['no prefix at all', ['messages'], /channels must be a list of channel names/],
    ['a bad character', ['demo.Messages'], /channels must be a list of channel names/],
    ['a duplicate', ['demo.a', 'demo.a'], /channels: "demo\.a" is listed twice/],
    ['a channel that is not a string', [{ name: 'demo.a' }], /channels must be a list of channel names/],
  ];
  for (const [label, channels, message] of refused) {
    it(`refuses ${label} with PLUGIN_LOAD_FAILED`, async () => {
      const registry = loadRegistry([registryWith({ demo: channels })]);
      await assert.rejects(importPlugin(registry.get('demo')!), (err: any) => err.code === 'PLUGIN_LOAD_FAILED' && message.test(err.message) && err.message.includes('demo.mjs'));
    });
  }

  it('are no longer read from a registry entry: the file says to move them', () => {
    const dir = registryWith({});
    writeFileSync(join(dir, 'old.yaml'), 'name: old\nmodule: ../old.mjs\nchannels: [old.a]\n');
    assert.throws(() => loadRegistry([dir]), (err: any) => err.code === 'REGISTRY_INVALID' && /"channels" is not read from the registry: .*declared once, in its definePlugin object\. Move it there\./.test(err.message));
  });

  it("announce the enabled plugins' channels, sorted, in the capability, before any setup", async () => {
    const registry = loadRegistry([registryWith({ zed: ['zed.b'], alpha: ['alpha.a'], off: ['off.x'] })]);
    const channels = await declaredChannels(registry, { zed: {}, alpha: {}, off: { enabled: false } });
    assert.deepEqual(channels, ['alpha.a', 'zed.b']);
    assert.deepEqual(serverCapabilities(channels).experimental, { 'claude/channel': { channels: ['alpha.a', 'zed.b'] } });
    assert.deepEqual(serverCapabilities([]).tools, { listChanged: true });
  });

  it('announce none for a plugin that cannot be imported (the boot then says why)', async () => {
    const dir = registryWith({ good: ['good.a'] });
    writeFileSync(join(dir, 'broken.yaml'), 'name: broken\nmodule: ../broken.mjs\n');
    writeFileSync(join(dir, '..', 'broken.mjs'), 'throw new Error("no");\n');
    assert.deepEqual(await declaredChannels(loadRegistry([dir]), { good: {}, broken: {} }), ['good.a']);
  });
});
