import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { coreErrors, GatewayError } from '../../../core/contract/errors.js';
import { textLines } from '../../../core/lib/text-lines.js';
import { createHttpApp, listenHttp } from '../../../core/http/http-server.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import { coreErrorLookup, jsonRpcError, jsonTextOf, restFailure, restSuccessText, statusOf, toolCallResponse, withJsonText } from '../../../core/contract/replies.js';
import { BIN, lastOutcome, memoryClient, resultJson, socketClient, startGateway, tempDir, testConfigObject, writeConfig } from '../../helpers.js';

describe('the reply module', () => {
  const table = [
    { code: 'PARSE_ERROR', jsonRpc: -32700, status: 400 },
    { code: 'INVALID_PARAMS', jsonRpc: -32602, status: 400 },
    { code: 'CONNECTION_LIMIT', jsonRpc: -32000, status: 503 },
    // Result-form codes have no JSON-RPC code: a caller's mistake is an Invalid Request...
    { code: 'FORBIDDEN', jsonRpc: -32600, status: 403 },
    // ...anything else an internal error.
    { code: 'INTERNAL_ERROR', jsonRpc: -32603, status: 500 },
    { code: 'NOT_A_CODE', jsonRpc: -32603, status: 500 },
  ];
  for (const { code, jsonRpc, status } of table) {
    it(`${code}: JSON-RPC ${jsonRpc}, HTTP ${status}, from the error table`, () => {
      const error = new GatewayError(code, 'What to do.');
      assert.deepEqual(jsonRpcError(7, error), { jsonrpc: '2.0', id: 7, error: { code: jsonRpc, message: 'What to do.', data: { code } } });
      assert.equal(statusOf(error, coreErrorLookup), status);
    });
  }

  it('a tools/call failure takes the MCP form its code has', () => {
    const unknown = toolCallResponse(1, { ok: false, error: new GatewayError('UNKNOWN_TOOL', 'No such tool.') }, coreErrorLookup);
    assert.equal((unknown as { error: { code: number } }).error.code, coreErrors.UNKNOWN_TOOL.jsonRpcCode);
    const timeout = toolCallResponse(2, { ok: false, error: new GatewayError('TOOL_TIMEOUT', 'Too slow.') }, coreErrorLookup);
    assert.deepEqual((timeout as { result: unknown }).result, { isError: true, content: [{ type: 'text', text: '{"code":"TOOL_TIMEOUT","message":"Too slow."}' }] });
  });

  it('REST envelopes', () => {
    assert.deepEqual(restFailure(new GatewayError('FORBIDDEN', 'No.', { details: { a: 1 } })), { success: false, error: { code: 'FORBIDDEN', message: 'No.', details: { a: 1 } } });
    assert.deepEqual(JSON.parse(restSuccessText('{"n":1}')), { success: true, data: { n: 1 } });
  });
});

/**
 * The stream transports write a structured result's JSON as the catalog made it, once, inside
 * the message's text: the line must still be exactly the message JSON.stringify would give.
 */
describe('a message carrying its own JSON text', () => {
  it('is written as it is, and leaves no trace in the message itself', () => {
    const message = withJsonText({ jsonrpc: '2.0', id: 1, result: {} }, 'the text');
    assert.equal(jsonTextOf(message), 'the text');
    assert.equal(JSON.stringify(message), '{"jsonrpc":"2.0","id":1,"result":{}}');
    assert.equal(jsonTextOf({ ...message }), '{"jsonrpc":"2.0","id":1,"result":{}}', 'a copy does not carry a text that may no longer fit it');
  });

  it('a tools/call answer over the unix socket is the line JSON.stringify gives, whatever the id', async () => {
    const dir = tempDir();
    const gateway = await startGateway({}, dir);
    const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, gateway.config.transports.unix);
    after(() => unix.close());
    const socket = connect(join(dir, 'gw.sock'));
    after(() => socket.destroy());
    // Split at "\n" only, as a client must: a raw U+2028 in the id is part of the line.
    const lines = textLines(socket)[Symbol.asyncIterator]();
    const send = async (message: object) => {
      socket.write(`${JSON.stringify(message)}\n`);
      return (await lines.next()).value as string;
    };
    await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    socket.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    for (const id of [7, 'quote " and \\ and \u2028', '']) {
      const line = await send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'a "quoted"\nline' } } });
      const parsed = JSON.parse(line);
      assert.equal(line, JSON.stringify(parsed));
      assert.equal(parsed.id, id);
      assert.deepEqual(parsed.result.structuredContent.text, 'a "quoted"\nline');
      assert.deepEqual(parsed.result.structuredContent, JSON.parse(parsed.result.content[0].text));
    }
  });
});

/**
 * A result JSON cannot express is serialised once, in the catalog, before the audit row: the
 * call is INTERNAL_ERROR in the row and in the reply on every face, never "ok" in one and
 * -32603 in the other.
 */
describe('a result JSON cannot express, on every face', () => {
  for (const kind of ['bigint', 'cycle'] as const) {
    it(`${kind}: MCP over memory, TCP, the unix socket and /mcp; REST on the fast path and through fastify`, async () => {
      const dir = tempDir();
      const gateway = await startGateway({}, dir);
      const http = await listenHttp(gateway, { ...gateway.config.transports.http, host: '127.0.0.1', port: 0 });
      const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
      const unix = await listenSocket(gateway, { kind: 'unix', path: join(dir, 'gw.sock') }, gateway.config.transports.unix);
      after(() => Promise.all([http.close(), tcp.close(), unix.close()]));
      const call = { name: 'echo_fail', arguments: { kind } };

      const clients: Array<[string, Client]> = [['memory', await memoryClient(gateway)]];
      for (const listener of [tcp, unix]) {
        const { client } = await socketClient(listener.address);
        after(() => client.close());
        clients.push([listener.address.kind, client]);
      }
      const overHttp = new Client({ name: 'http-client', version: '1.0.0' });
      await overHttp.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address.port}/mcp`)));
      after(() => overHttp.close());
      clients.push(['/mcp', overHttp]);
      for (const [face, client] of clients) {
        const result = await client.callTool(call);
        assert.equal(result.isError, true, face);
        assert.equal(resultJson(result).code, 'INTERNAL_ERROR', face);
        assert.equal(lastOutcome(gateway, 'echo_fail'), 'INTERNAL_ERROR', `${face}: the audit row`);
      }

      const fast = await fetch(`http://127.0.0.1:${http.address.port}/tools/echo_fail`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind }) });
      assert.equal(fast.status, 500);
      assert.equal(((await fast.json()) as { error: { code: string } }).error.code, 'INTERNAL_ERROR');
      assert.equal(lastOutcome(gateway, 'echo_fail'), 'INTERNAL_ERROR');

      const app = await createHttpApp(gateway, { ...gateway.config.transports.http, host: '127.0.0.1' });
      after(() => app.close());
      const injected = await app.inject({ method: 'POST', url: '/tools/echo_fail', payload: { kind } });
      assert.equal(injected.statusCode, 500);
      assert.equal(injected.json().error.code, 'INTERNAL_ERROR');
      gateway.audit?.flush();
      const rows = gateway.db.prepare("SELECT outcome FROM core_audit WHERE tool = 'echo_fail'").all() as Array<{ outcome: string }>;
      assert.deepEqual(rows.map((r) => r.outcome), Array(clients.length + 2).fill('INTERNAL_ERROR'));
    });
  }

  it('over stdio (the built binary): INTERNAL_ERROR in the reply and in the audit row', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, testConfigObject(dir));
    const client = new Client({ name: 'stdio-bigint', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config], stderr: 'ignore' }));
    const result = await client.callTool({ name: 'echo_fail', arguments: { kind: 'bigint' } });
    await client.close();
    assert.equal(result.isError, true);
    assert.equal(resultJson(result).code, 'INTERNAL_ERROR');
    // Closing stdin stops the gateway, which folds its journal into core_audit.
    const db = new BetterSqlite3(join(dir, 'data', 'gateway.db'), { readonly: true });
    try {
      for (let tries = 0; ; tries++) {
        const row = db.prepare("SELECT outcome FROM core_audit WHERE tool = 'echo_fail'").get() as { outcome: string } | undefined;
        if (row || tries > 100) {
          assert.equal(row?.outcome, 'INTERNAL_ERROR');
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      db.close();
    }
  });
});
