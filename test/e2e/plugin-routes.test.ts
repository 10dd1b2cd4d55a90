import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import WebSocket from 'ws';
import { FIXTURE_REGISTRY, httpRequest, spawnGateway, tempDir, testConfigObject, TESTS, writeConfig } from '../helpers.js';

// The compiled binary with the board fixture (a third-party plugin in plain JavaScript): its
// routes, page and socket served by `mcp-gateway serve` behind the owner key.
describe('plugin routes through the mcp-gateway binary', async () => {
  const dir = tempDir('mcpgw-e2e-routes-');
  const config = writeConfig(dir, {
    ...testConfigObject(dir, { auth: 'key', logLevel: 'info', plugins: { board: {} } }),
    registries: [FIXTURE_REGISTRY, join(TESTS, 'fixtures', 'routes-plugin', 'registry')],
  });
  const gateway = spawnGateway(['serve', '--config', config, '--http', '127.0.0.1:0', '--no-tcp', '--no-unix']);
  const [address] = await gateway.listening(1);
  const port = (address as { port: number }).port;
  const key = readFileSync(join(dir, 'data', 'owner.key'), 'utf8').trim();
  const bearer = { authorization: `Bearer ${key}` };

  it('serves a route, the static page and the socket to the owner key, and refuses them without', async () => {
    assert.equal((await httpRequest(port, { method: 'POST', url: '/plugins/board/items', payload: { text: 'e2e' } })).statusCode, 401);
    const added = await httpRequest(port, { method: 'POST', url: '/plugins/board/items', headers: bearer, payload: { text: 'e2e' } });
    assert.deepEqual(added.json(), { success: true, data: { id: 1, text: 'e2e', author: 'owner' } });
    const page = await httpRequest(port, { method: 'GET', url: '/plugins/board/static/', headers: bearer });
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    const hello = await new Promise<any>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/plugins/board/feed`, { headers: bearer });
      ws.once('message', (data) => {
        resolve(JSON.parse(data.toString()));
        ws.close();
      });
      ws.once('error', reject);
    });
    assert.deepEqual(hello, { type: 'hello', identity: 'owner', query: {} });
  });

  it('stops cleanly on SIGTERM with a plugin socket open', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/plugins/board/feed`, { headers: bearer });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    assert.equal(await gateway.stop('SIGTERM'), 0);
    assert.equal(await closed, 1001);
  });
});
