import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { declaredChannels, loadRegistry } from '../../../core/plugins/registry.js';
import { serverCapabilities } from '../../../core/mcp/mcp-session.js';
import { tempDir } from '../../helpers.js';

function registryWith(entries: Record<string, string>): string {
  const dir = join(tempDir(), 'registry');
  mkdirSync(dir);
  writeFileSync(join(dir, '..', 'plugin.mjs'), 'export default {};');
  for (const [name, channels] of Object.entries(entries)) {
    writeFileSync(join(dir, `${name}.yaml`), `name: ${name}\nmodule: ../plugin.mjs\n${channels}`);
  }
  return dir;
}

describe('channels in registry entries', () => {
  it('default to none, and are read in order', () => {
    const registry = loadRegistry([registryWith({ quiet: '', chat: 'channels: [chat.messages, chat.rooms.updates]\n' })]);
    assert.deepEqual(registry.get('quiet')!.channels, []);
    assert.deepEqual(registry.get('chat')!.channels, ['chat.messages', 'chat.rooms.updates']);
  });

  const refused: Array<[string, string, RegExp]> = [
    ["another plugin's prefix", 'channels: [other.messages]\n', /channels: "other\.messages" must start with the plugin's name, "demo\."/],
    ['no prefix at all', 'channels: [messages]\n', /channels\[0\]: must match pattern/],
    ['a bad character', 'channels: [demo.Messages]\n', /must match pattern/],
    ['a duplicate', 'channels: [demo.a, demo.a]\n', /must NOT have duplicate items/],
    ['a channel that is not a string', 'channels: [{name: demo.a}]\n', /must be string/],
  ];
  for (const [label, yaml, message] of refused) {
    it(`refuses ${label} with REGISTRY_INVALID`, () => {
      const dir = registryWith({ demo: yaml });
      assert.throws(() => loadRegistry([dir]), (err: any) => err.code === 'REGISTRY_INVALID' && message.test(err.message) && err.message.includes('demo.yaml'));
    });
  }

  it("announce the enabled plugins' channels, sorted, in the capability", () => {
    const registry = loadRegistry([registryWith({ zed: 'channels: [zed.b]\n', alpha: 'channels: [alpha.a]\n', off: 'channels: [off.x]\n' })]);
    const channels = declaredChannels(registry, { zed: {}, alpha: {}, off: { enabled: false } });
    assert.deepEqual(channels, ['alpha.a', 'zed.b']);
    assert.deepEqual(serverCapabilities(channels).experimental, { 'claude/channel': { channels: ['alpha.a', 'zed.b'] } });
    assert.deepEqual(serverCapabilities([]).tools, { listChanged: true });
  });
});
