import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listenSocket, type SocketListener } from '../../../core/mcp/socket-server.js';
import { MAX_UNIX_PATH_BYTES } from '../../../core/mcp/unix-socket.js';
import { startGateway, socketClient, tempDir, toolCalls } from '../../helpers.js';

/** A socket file whose server died without removing it (a gateway killed with SIGKILL). */
function leaveStaleSocket(path: string): void {
  spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
  assert.ok(lstatSync(path).isSocket());
}

/** Resolves true when something accepts a connection on `path`. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('the unix socket when gateways start at once on one path', async () => {
  const gateways = await Promise.all([0, 1, 2, 3].map(() => startGateway()));
  const limits = gateways[0]!.config.transports.unix;

  /** Every gateway starts its socket on `path` at the same moment; the one that got it, and the others' errors. */
  async function startAll(path: string): Promise<{ winner: SocketListener; refusals: Array<Error & { code?: string }> }> {
    const outcomes = await Promise.allSettled(gateways.map((gateway) => listenSocket(gateway, { kind: 'unix', path }, limits)));
    const started = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as Error & { code?: string }] : []));
    // Closed at the end whatever happens, so that a failure here leaves nothing listening.
    if (started.length !== 1) await Promise.all(started.map((s) => s.close()));
    assert.equal(started.length, 1, `exactly one gateway holds the path (got ${started.length})`);
    return { winner: started[0]!, refusals };
  }

  for (const [label, prepare] of [
    ['a new path', (_path: string) => {}],
    ['a stale socket file a killed gateway left', leaveStaleSocket],
  ] as const) {
    it(`on ${label}: one serves, the others fail with SOCKET_IN_USE and leave its socket alone`, async () => {
      const dir = tempDir();
      const path = join(dir, 'gateway.sock');
      prepare(path);
      const { winner, refusals } = await startAll(path);
      try {
        assert.equal(refusals.length, gateways.length - 1);
        for (const err of refusals) {
          assert.equal(err.code, 'SOCKET_IN_USE', err.stack);
          assert.match(err.message, /Another process is serving on .*gateway\.sock .*--no-unix/);
        }
        assert.equal(lstatSync(path).mode & 0o777, 0o600);
        const { client } = await socketClient(winner.address);
        assert.equal((await toolCalls(client).call('echo', { text: 'through the path' })).text, 'through the path');
        await client.close();
        // Nothing of the losers is left: no socket of theirs under another name, no stale file.
        assert.deepEqual(readdirSync(dir), ['gateway.sock']);
      } finally {
        await winner.close();
      }
      assert.deepEqual(readdirSync(dir), [], 'the winner removes its file on close');
    });
  }

  it("a gateway that lost the path does not remove the winner's file when it closes", async () => {
    const path = join(tempDir(), 'gateway.sock');
    const first = await listenSocket(gateways[0]!, { kind: 'unix', path }, limits);
    await assert.rejects(listenSocket(gateways[1]!, { kind: 'unix', path }, limits), { code: 'SOCKET_IN_USE' });
    await gateways[1]!.close();
    assert.equal(await answers(path), true);
    await first.close();
    assert.equal(await answers(path), false);
  });

  it('never replaces a file that is not a socket', async () => {
    const path = join(tempDir(), 'gateway.sock');
    writeFileSync(path, 'notes');
    await assert.rejects(listenSocket(gateways[0]!, { kind: 'unix', path }, limits), { code: 'CONFIG_INVALID', message: /exists and is not a socket/ });
    assert.ok(lstatSync(path).isFile());
  });
});

describe('unix socket paths at the length limit', async () => {
  const gateway = await startGateway();
  const limits = gateway.config.transports.unix;

  /** A path of `bytes` bytes ending in the name `name`, in a folder of its own. */
  function pathOf(bytes: number, name: string): string {
    const base = realpathSync(tempDir());
    const folder = join(base, 'd'.repeat(bytes - base.length - name.length - 2));
    mkdirSync(folder);
    const path = join(folder, name);
    assert.equal(Buffer.byteLength(path), bytes);
    return path;
  }

  // A private name longer than the path's own ("gateway.sock") would not fit: Node cuts it short.
  for (const name of ['gateway.sock', 's']) {
    it(`serves on a path of exactly ${MAX_UNIX_PATH_BYTES} bytes named "${name}", and leaves nothing else in its folder`, async () => {
      const path = pathOf(MAX_UNIX_PATH_BYTES, name);
      const listener = await listenSocket(gateway, { kind: 'unix', path }, limits);
      try {
        assert.deepEqual(readdirSync(join(path, '..')), [name]);
        const { client } = await socketClient(listener.address);
        assert.equal((await toolCalls(client).call('echo', { text: 'at the limit' })).text, 'at the limit');
        await client.close();
      } finally {
        await listener.close();
      }
      assert.deepEqual(readdirSync(join(path, '..')), []);
    });
  }

  it('refuses a longer path with CONFIG_INVALID (Node would bind it cut short), creating nothing', async () => {
    const path = pathOf(MAX_UNIX_PATH_BYTES + 1, 'gateway.sock');
    await assert.rejects(listenSocket(gateway, { kind: 'unix', path }, limits), {
      code: 'CONFIG_INVALID',
      message: new RegExp(`is ${MAX_UNIX_PATH_BYTES + 1} bytes; a unix socket path holds at most ${MAX_UNIX_PATH_BYTES} here\\. Choose a shorter transports\\.unix\\.path`),
    });
    assert.deepEqual(readdirSync(join(path, '..')), []);
  });
});
