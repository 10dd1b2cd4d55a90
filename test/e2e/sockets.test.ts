import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../core/gateway/gateway.js';
import { listenSocket, type SocketListener } from '../../core/mcp/socket-server.js';
import type { SocketAddress } from '../../core/contract/addresses.js';
import { lastOutcome, resultJson, socketClient, startGateway, tempDir, waitFor } from '../helpers.js';
import { RawConnection } from '../core/mcp/socket-clients.js';

const TEN_MIB = 10 * 1024 * 1024;
const limits = { enabled: true, maxConnections: 16, maxMessageBytes: TEN_MIB };

const call = (id: number | string, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

async function echoWorks(client: Client, text: string): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { text } });
  assert.equal(resultJson(result).text, text);
}

describe('TCP and unix socket transports', async () => {
  const dir = tempDir();
  const gateway: Gateway = await startGateway({}, dir);
  const listeners: SocketListener[] = [
    await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, limits),
    await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, limits),
  ];
  after(() => Promise.all(listeners.map((l) => l.close())));

  for (const listener of listeners) {
    const kind = listener.address.kind;

    describe(kind, () => {
      it('serves several concurrent SDK clients, each its own session, and forgets them when they leave', async () => {
        const clients = await Promise.all([0, 1, 2, 3, 4].map((i) => socketClient(listener.address, `client-${i}`)));
        await Promise.all(
          clients.flatMap(({ client }, i) => Array.from({ length: 20 }, (_, j) => echoWorks(client, `c${i}-call${j}`))),
        );
        const { tools } = await clients[0]!.client.listTools();
        assert.ok(tools.some((t) => t.name === 'gateway_status'));
        const status = (await clients[0]!.client.callTool({ name: 'gateway_status', arguments: {} })).structuredContent as any;
        assert.ok(status.sessions[kind] >= 5);
        const open = gateway.sessions.countByTransport()[kind]!;
        await Promise.all(clients.map(({ client }) => client.close()));
        await waitFor(() => gateway.sessions.countByTransport()[kind] === open - 5);
      });

      describe('hostile input: each is answered, and the gateway keeps serving everyone', async () => {
        const bystander = await socketClient(listener.address, 'bystander');
        const raw = await RawConnection.open(listener.address);
        await raw.initialize();
        after(async () => {
          await bystander.client.close();
          raw.socket.destroy();
        });

        const cases: Array<[string, unknown, (reply: any) => void]> = [
          ['a line that is not JSON', '{"jsonrpc": "2.0", "id": 1, "method"', (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [null, -32700, 'PARSE_ERROR'])],
          ['JSON that is not JSON-RPC', { hello: 'world', id: 9 }, (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [9, -32600, 'INVALID_REQUEST'])],
          ['a JSON array', '[1, 2, 3]', (r) => assert.equal(r.error.code, -32600)],
          ['a bare JSON string', '"tools/list"', (r) => assert.equal(r.error.code, -32600)],
          ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 3, method: 'tools/list' }, (r) => assert.equal(r.error.code, -32600)],
          ['an unknown method', { jsonrpc: '2.0', id: 4, method: 'tools/destroy' }, (r) => assert.deepEqual([r.id, r.error.code], [4, -32601])],
          ['an unknown tool', call(5, 'rm_rf', {}), (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [5, -32602, 'UNKNOWN_TOOL'])],
          ['arguments of the wrong type', call(6, 'echo', { text: ['not', 'a', 'string'] }), (r) => expectToolError(r, 'INVALID_ARGUMENTS', /\/text must be string/)],
          ['a missing required field', call(7, 'echo', { times: 2 }), (r) => expectToolError(r, 'INVALID_ARGUMENTS', /missing required key "text"/)],
          ['an extra field where the schema forbids it', call(8, 'echo', { text: 'a', rm: true }), (r) => expectToolError(r, 'INVALID_ARGUMENTS', /unknown key "rm"/)],
          ['arguments that are not an object', call(10, 'echo', 'text'), (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [10, -32602, 'INVALID_PARAMS'])],
          ['tools/call without a tool name', { jsonrpc: '2.0', id: 14, method: 'tools/call', params: { arguments: {} } }, (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [14, -32602, 'INVALID_PARAMS'])],
          ['tools/call with a key JSON-RPC does not have', { ...call(17, 'echo', { text: 'x' }), extra: true }, (r) => assert.deepEqual([r.id, r.error.code], [17, -32600])],
          ['tools/call with a fractional id', call(18.5, 'echo', { text: 'x' }), (r) => assert.equal(r.error.code, -32600)],
          ['a progressToken that is an object', { jsonrpc: '2.0', id: 19, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: {} } } }, (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [19, -32602, 'INVALID_PARAMS'])],
          ['a __proto__ key', `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","__proto__":{"admin":true}}}}`, (r) => assert.deepEqual([r.error.code, r.error.data.code], [-32600, 'INVALID_REQUEST'])],
          ['a __proto__ key spelled with escapes', `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","\\u005f_proto__":{"admin":true}}}}`, (r) => assert.deepEqual([r.error.code, r.error.data.code], [-32600, 'INVALID_REQUEST'])],
          ['JSON nested a million levels deep', `{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","n":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}}}`, (r) => assert.ok(r.error || r.result?.isError)],
          ['deeply nested JSON', `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x","n":${'['.repeat(5000)}${']'.repeat(5000)}}}}`, (r) => expectToolError(r, 'INVALID_ARGUMENTS', /unknown key "n"/)],
          ['a message over the 10 MiB cap', `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'x'.repeat(TEN_MIB)}"}}}`, (r) => assert.deepEqual([r.id, r.error.code, r.error.data.code], [null, -32600, 'MESSAGE_TOO_LARGE'])],
        ];
        let n = 100;
        for (const [label, message, check] of cases) {
          it(label, async () => {
            raw.send(message);
            check(await raw.next());
            // The same connection still works...
            raw.send(call(++n, 'echo', { text: 'still here' }));
            const reply = await raw.next();
            assert.equal(reply.id, n);
            assert.equal(JSON.parse(reply.result.content[0].text).text, 'still here');
            // ...and so does everyone else's.
            await echoWorks(bystander.client, `after ${label}`);
          });
        }

        it('notifications/cancelled cancels a call by request id, and the call gets no response', async () => {
          raw.send(call('to-cancel', 'echo_sleep', { ms: 3000 }));
          await waitFor(() => gateway.calls.inFlight > 0);
          raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'to-cancel', reason: 'changed my mind' } });
          await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
          raw.send(call('after', 'echo', { text: 'next' }));
          assert.equal((await raw.next()).id, 'after');
        });

        it('progress notifications carry the progressToken of the request, then the result comes', async () => {
          raw.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'echo_sleep', arguments: { ms: 60, steps: 3 }, _meta: { progressToken: 'p-1' } } });
          const seen = [await raw.next(), await raw.next(), await raw.next(), await raw.next()];
          assert.deepEqual(
            seen.map((m) => m.method ?? m.id),
            ['notifications/progress', 'notifications/progress', 'notifications/progress', 'slow'],
          );
          assert.deepEqual(seen[0].params.progressToken, 'p-1');
          assert.equal(seen[3].result.isError, undefined);
        });

        it('a client that disconnects mid-call: the call is cancelled, nothing else notices', async () => {
          const leaver = await RawConnection.open(listener.address);
          await leaver.initialize();
          leaver.send(call(1, 'echo_sleep', { ms: 3000 }));
          await waitFor(() => gateway.calls.inFlight > 0);
          leaver.socket.destroy();
          await waitFor(() => lastOutcome(gateway, 'echo_sleep') === 'CANCELLED');
          await echoWorks(bystander.client, 'after the disconnect');
        });
      });
    });
  }

  it('creates the unix socket with mode 0600', () => {
    const path = (listeners[1]!.address as { path: string }).path;
    assert.equal(statSync(path).mode & 0o777, 0o600);
  });

  it('refuses connections past the limit with CONNECTION_LIMIT and keeps serving the others', async () => {
    const small = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, { ...limits, maxConnections: 2 });
    try {
      const first = await socketClient(small.address);
      const second = await socketClient(small.address);
      const third = await RawConnection.open(small.address);
      const reply = await third.next();
      assert.deepEqual([reply.id, reply.error.data.code], [null, 'CONNECTION_LIMIT']);
      await waitFor(() => third.closed);
      await echoWorks(first.client, 'first is fine');
      await echoWorks(second.client, 'second is fine');
      await Promise.all([first.client.close(), second.client.close()]);
    } finally {
      await small.close();
    }
  });

  it('replaces a stale socket file, refuses to steal a live one, and removes its file on close', async () => {
    const path = join(dir, 'stale.sock');
    const first = await listenSocket(gateway, { kind: 'unix', path }, limits);
    await assert.rejects(listenSocket(gateway, { kind: 'unix', path }, limits), /Another process is serving on/);
    await first.close();
    assert.equal(existsSync(path), false);

    // A socket file whose server died without cleaning up.
    const { spawnSync } = await import('node:child_process');
    spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)}, () => process.exit(0))`]);
    assert.equal(existsSync(path), true);
    const second = await listenSocket(gateway, { kind: 'unix', path }, limits);
    const { client } = await socketClient(second.address);
    await echoWorks(client, 'on a reclaimed path');
    await client.close();
    await second.close();
  });
});

function expectToolError(reply: any, code: string, message: RegExp): void {
  assert.equal(reply.result.isError, true);
  const body = JSON.parse(reply.result.content[0].text);
  assert.equal(body.code, code);
  assert.match(body.message, message);
}
