import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ideBackend, ideGateway } from './ide-helpers.js';

describe('ide-bridge config', () => {
  const refused: Array<[string, Record<string, unknown>]> = [
    ['an http URL', { url: 'http://127.0.0.1:9876/ws' }],
    ['a URL that does not parse', { url: 'ws://' }],
    ['an unknown key', { url: 'ws://127.0.0.1:9876/ws', retries: 3 }],
    ['an unknown mode', { whenDown: 'drop' }],
    ['a reconnect key misspelt', { reconnect: { baseMS: 10 } }],
    ['a zero queue', { queueLimit: 0 }],
    ['a zero push rate', { pushesPerSecond: 0 }],
    ['a push rate per session that is not a number', { pushesPerSessionPerSecond: 'many' }],
  ];
  for (const [what, config] of refused) {
    it(`refuses ${what} at boot, with CONFIG_INVALID`, async () => {
      await assert.rejects(ideGateway(String(config.url ?? 'ws://127.0.0.1:9/ws'), config), (err: any) => {
        assert.equal(err.code, 'CONFIG_INVALID', err.message);
        return true;
      });
    });
  }

  it('refuses a token holding a control character at boot, naming its variable and not its value', async () => {
    process.env.IDE_TEST_TOKEN = 'secret-token\nX-Injected: 1';
    try {
      await assert.rejects(ideGateway('ws://127.0.0.1:9/ws', { tokenEnv: 'IDE_TEST_TOKEN' }), (err: any) => {
        assert.equal(err.code, 'CONFIG_INVALID', err.message);
        assert.match(err.message, /IDE_TEST_TOKEN/);
        assert.doesNotMatch(err.message, /secret-token/);
        return true;
      });
    } finally {
      delete process.env.IDE_TEST_TOKEN;
    }
  });

  it('never shows the credentials of a URL in ide_bridge_status or /health', async () => {
    const backend = await ideBackend();
    const url = backend.url.replace('ws://', 'ws://someone:secret-pw@');
    const ide = await ideGateway(url);
    await ide.connected();
    const status = await ide.status();
    assert.ok(!JSON.stringify(status).includes('secret-pw'));
    const health = ide.gateway.status().plugins.find((p) => p.name === 'ide-bridge')!.status!;
    assert.equal(health.ok, true);
    assert.ok(!JSON.stringify(health).includes('secret-pw'));
  });
});
