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

/**
 * A hub gateway with the HTTP upstream `remote` (in `protocol`, else auto), which reads
 * note.txt (holding `text`), then the remote stopped and started again on the same port, and
 * the read once more: both answers and the hub's status of the remote after it.
 */
async function readAcrossRestart(text: string, protocol?: string) {
  const remoteDir = tempDir('mcpgw-remote-');
  writeFileSync(join(remoteDir, 'note.txt'), text);
  let remote = await remoteGateway(remoteDir, 0);
  const server = { name: 'remote', url: `http://127.0.0.1:${remote.port}/mcp`, ...(protocol === undefined ? {} : { protocol }) };
  const gateway = await startGateway({ plugins: { upstream: { config: { servers: [server] } } } }, tempDir('mcpgw-upstream-'));
  const client = await memoryClient(gateway);
  const read = async () => client.callTool({ name: 'remote_file_read', arguments: { path: 'note.txt' } });
  const before = await read();
  // The remote gateway first (it ends its sessions and listen streams), then its HTTP server;
  // a new process on the same port knows nothing of the old one (the ping, every 15 s, has not run).
  await remote.gateway.close();
  await remote.app.close();
  remote = await remoteGateway(remoteDir, remote.port);
  const after = await read();
  const status = serverStatus(gateway, 'remote');
  await gateway.close();
  await remote.gateway.close();
  await remote.app.close();
  return { before, after, status };
}

describe('upstream: an HTTP server that restarts between calls', () => {
  it('2025-11-25: the next call renews the session and runs, once, without an error', async () => {
    const { before, after, status } = await readAcrossRestart('one\n', '2025-11-25');
    assert.equal(resultJson(before).content, 'one\n');
    assert.notEqual(after.isError, true, JSON.stringify(after.content));
    assert.equal(resultJson(after).content, 'one\n');
    assert.equal(status.state, 'connected');
    assert.equal(status.restarts, 1, 'a renewed session counts as a reconnect');
  });

  it('2026-07-28 (found by server/discover): there is no session, so the next call simply runs', async () => {
    const { before, after, status } = await readAcrossRestart('two\n');
    assert.equal(resultJson(before).content, 'two\n');
    assert.notEqual(after.isError, true, JSON.stringify(after.content));
    assert.equal(resultJson(after).content, 'two\n');
    assert.equal(status.restarts, 0, 'nothing to renew');
  });
});
