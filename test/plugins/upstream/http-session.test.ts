import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { memoryClient, resultJson, startGateway, tempDir } from '../../helpers.js';
import { serverStatus } from './upstream-helpers.js';

/** A gateway with the files plugin serving /mcp on `port` (0: any): the HTTP upstream. */
async function remoteGateway(dir: string, port: number) {
  const gateway = await startGateway({ plugins: { files: {} }, registries: [], transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port } } }, dir);
  const app = await createHttpApp(gateway);
  await app.listen({ host: '127.0.0.1', port });
  return { gateway, app, port: (app.server.address() as { port: number }).port };
}

describe('upstream: an HTTP server that restarts between calls', () => {
  it('2025-11-25: the next call renews the session and runs, once, without an error', async () => {
    const remoteDir = tempDir('mcpgw-remote-');
    writeFileSync(join(remoteDir, 'note.txt'), 'one\n');
    let remote = await remoteGateway(remoteDir, 0);
    const gateway = await startGateway(
      { plugins: { upstream: { config: { servers: [{ name: 'remote', url: `http://127.0.0.1:${remote.port}/mcp`, protocol: '2025-11-25' }] } } } },
      tempDir('mcpgw-upstream-'),
    );
    const client = await memoryClient(gateway);
    const read = async () => client.callTool({ name: 'remote_file_read', arguments: { path: 'note.txt' } });
    assert.equal(resultJson(await read()).content, 'one\n');

    // A new process on the same port knows nothing of the old session (the ping, every 15 s, has not run).
    await remote.app.close();
    await remote.gateway.close();
    remote = await remoteGateway(remoteDir, remote.port);
    const after = await read();
    assert.notEqual(after.isError, true, JSON.stringify(after.content));
    assert.equal(resultJson(after).content, 'one\n');
    assert.equal(serverStatus(gateway, 'remote').state, 'connected');
    assert.equal(serverStatus(gateway, 'remote').restarts, 1, 'a renewed session counts as a reconnect');
    await remote.app.close();
  });

  it('2026-07-28 (found by server/discover): there is no session, so the next call simply runs', async () => {
    const remoteDir = tempDir('mcpgw-remote-');
    writeFileSync(join(remoteDir, 'note.txt'), 'two\n');
    let remote = await remoteGateway(remoteDir, 0);
    const gateway = await startGateway(
      { plugins: { upstream: { config: { servers: [{ name: 'remote', url: `http://127.0.0.1:${remote.port}/mcp` }] } } } },
      tempDir('mcpgw-upstream-'),
    );
    const client = await memoryClient(gateway);
    const read = async () => client.callTool({ name: 'remote_file_read', arguments: { path: 'note.txt' } });
    assert.equal(resultJson(await read()).content, 'two\n');
    // The gateway first (it ends its listen streams), then its HTTP server; a new one on the same port.
    await remote.gateway.close();
    await remote.app.close();
    remote = await remoteGateway(remoteDir, remote.port);
    const after = await read();
    assert.notEqual(after.isError, true, JSON.stringify(after.content));
    assert.equal(resultJson(after).content, 'two\n');
    assert.equal(serverStatus(gateway, 'remote').restarts, 0, 'nothing to renew');
    await gateway.close();
    await remote.gateway.close();
    await remote.app.close();
  });
});
