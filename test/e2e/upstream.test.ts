import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN, freePort, socketClient, spawnGateway, tempDir, testConfigObject, waitFor, writeConfig } from '../helpers.js';
import { EVERYTHING_SERVER, FILESYSTEM_SERVER, isRunning } from '../plugins/upstream/upstream-helpers.js';

/**
 * A second gateway (files plugin, owner key) on `port`: the remote HTTP upstream. Both gateways
 * keep idle keep-alive sockets for the whole test: a client reusing one just as the server
 * closes it gets "other side closed" (likely on a loaded machine), a race this file does not test.
 */
function startRemote(dir: string, port: number) {
  const config = { ...testConfigObject(dir, { logLevel: 'info', auth: 'key', plugins: { files: {} }, registries: [] }), transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port, keepAliveTimeoutMs: 120_000 } } };
  return spawnGateway(['serve', '--config', writeConfig(dir, config)]);
}

describe('upstream: real servers from npm and a second gateway, through every face of the gateway', async () => {
  const work = tempDir('mcpgw-upstream-e2e-');
  writeFileSync(join(work, 'hello.txt'), 'hello from the workspace\n');
  const remoteDir = tempDir('mcpgw-remote-');
  writeFileSync(join(remoteDir, 'remote.txt'), 'remote file\n');
  const remotePort = await freePort();
  let remote = startRemote(remoteDir, remotePort);
  await remote.listening(1, 60_000);
  const token = readFileSync(join(remoteDir, 'data', 'owner.key'), 'utf8').trim();

  const upstream = {
    config: {
      restartInitialDelayMs: 100,
      restartMaxDelayMs: 500,
      servers: [
        { name: 'everything', command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'] },
        { name: 'fs', command: process.execPath, args: [FILESYSTEM_SERVER, '.'] },
        { name: 'remote', url: `http://127.0.0.1:${remotePort}/mcp`, headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' } },
      ],
    },
  };
  const overrides = { plugins: { upstream }, registries: [], logLevel: 'info', transports: { unix: { enabled: false }, tcp: { port: 0 }, http: { port: 0, keepAliveTimeoutMs: 120_000 } } };
  const config = writeConfig(work, { ...testConfigObject(work, overrides), workspace: work });
  const env = { REMOTE_TOKEN: token };
  const gateway = spawnGateway(['serve', '--config', config], { env, cwd: work });
  const addresses = await gateway.listening(2, 60_000);
  const tcpAddress = addresses.find((a) => a.kind === 'tcp')!;
  const { port } = addresses.find((a) => a.kind === 'http') as { port: number };
  const base = `http://127.0.0.1:${port}`;

  const { client: tcp } = await socketClient(tcpAddress as never, 'tcp-upstream');
  after(() => tcp.close());
  const http = new Client({ name: 'http-upstream', version: '1.0.0' });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  after(() => http.close());
  const stdioConfig = writeConfig(work, { ...testConfigObject(work, { ...overrides, dataDir: join(work, 'stdio-data') }), workspace: work }, 'stdio.yaml');
  const stdio = new Client({ name: 'stdio-upstream', version: '1.0.0' });
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', stdioConfig], env: { ...process.env, ...env } as Record<string, string>, cwd: work, stderr: 'pipe' }));
  after(() => stdio.close());
  const rest = (tool: string, body: unknown) =>
    fetch(`${base}/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

  const calls: Array<[string, Record<string, unknown>, (text: string) => void]> = [
    ['everything_get_sum', { a: 2, b: 3 }, (text) => assert.match(text, /5/)],
    ['fs_read_text_file', { path: 'hello.txt' }, (text) => assert.equal(text, 'hello from the workspace\n')],
    ['remote_file_read', { path: 'remote.txt' }, (text) => assert.equal(JSON.parse(text).content, 'remote file\n')],
  ];
  for (const [label, client] of [['stdio', stdio], ['TCP', tcp], ['/mcp', http]] as const) {
    it(`each upstream's tool over ${label}`, async () => {
      for (const [tool, args, check] of calls) {
        const result = await client.callTool({ name: tool, arguments: args });
        assert.notEqual(result.isError, true, `${tool}: ${JSON.stringify(result)}`);
        check((result.content as Array<{ text: string }>)[0]!.text);
      }
    });
  }

  it('over REST: content, structuredContent as data, and the server schema enforced here', async () => {
    const sum = await rest('everything_get_sum', { a: 2, b: 3 });
    assert.equal(sum.status, 200);
    assert.match(sum.body.data.content[0].text, /5/);
    const structured = await rest('everything_get_structured_content', { location: 'Chicago' });
    assert.equal(structured.status, 200);
    assert.equal(typeof structured.body.data.temperature, 'number');
    const bad = await rest('everything_get_sum', { a: 'two' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'INVALID_ARGUMENTS');
    const missing = await rest('fs_read_text_file', { path: 'nope.txt' });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error.code, 'UPSTREAM_TOOL_ERROR');
  });

  it('the OpenAPI document has an operation per upstream tool and is valid', async () => {
    const document = (await (await fetch(`${base}/openapi.json`)).json()) as any;
    for (const tool of ['everything_get_sum', 'fs_read_text_file', 'remote_file_read']) assert.ok(document.paths[`/tools/${tool}`]?.post, tool);
    await SwaggerParser.validate(structuredClone(document));
  });

  it('an 11.8 MB file through the filesystem server: 502 UPSTREAM_MESSAGE_TOO_LARGE, the gateway stays up and fs comes back', async () => {
    writeFileSync(join(work, 'big.log'), 'x'.repeat(11_800_000));
    const big = await rest('fs_read_text_file', { path: 'big.log' });
    assert.equal(big.status, 502, JSON.stringify(big.body).slice(0, 300));
    assert.equal(big.body.error.code, 'UPSTREAM_MESSAGE_TOO_LARGE');
    assert.equal(big.body.error.details.maxMessageBytes, 10 * 1024 * 1024);
    const sum = await rest('everything_get_sum', { a: 2, b: 3 });
    assert.equal(sum.status, 200, 'the other servers answer meanwhile');
    const fsState = async () => {
      const health = (await (await fetch(`${base}/health`)).json()) as any;
      return health.plugins.find((p: { name: string }) => p.name === 'upstream').status.detail.servers.find((s: { name: string }) => s.name === 'fs');
    };
    let fs = await fsState();
    for (let i = 0; i < 200 && !(fs.state === 'connected' && fs.restarts === 1); i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      fs = await fsState();
    }
    assert.deepEqual({ state: fs.state, restarts: fs.restarts }, { state: 'connected', restarts: 1 });
    const small = await rest('fs_read_text_file', { path: 'hello.txt' });
    assert.equal(small.status, 200);
    assert.equal(small.body.data.content, 'hello from the workspace\n');
  });

  it('progress from the server reaches the caller', async () => {
    const updates: number[] = [];
    await http.callTool({ name: 'everything_trigger_long_running_operation', arguments: { duration: 1, steps: 2 } }, {
      onprogress: (p) => void updates.push(p.progress),
    });
    assert.ok(updates.length >= 1, `progress seen: ${updates.join(',')}`);
  });

  it('resources, templates and prompts of the server', async () => {
    const { resources } = await tcp.listResources();
    assert.ok(resources.some((r) => r.uri === 'demo://resource/static/document/architecture.md'));
    const read = await tcp.readResource({ uri: 'demo://resource/dynamic/text/1' });
    assert.match(String((read.contents[0] as { text: string }).text), /1/);
    const prompt = await tcp.getPrompt({ name: 'everything_args_prompt', arguments: { city: 'Paris' } });
    assert.match(JSON.stringify(prompt.messages), /Paris/);
  });

  it('the remote gateway stopped: UPSTREAM_UNAVAILABLE at once; started again: reconnected and the call works', async () => {
    await remote.stop();
    const down = await rest('remote_file_read', { path: 'remote.txt' });
    assert.equal(down.status, 503);
    assert.equal(down.body.error.code, 'UPSTREAM_UNAVAILABLE');
    remote = startRemote(remoteDir, remotePort);
    await remote.listening(1, 60_000);
    // The first calls after the restart may still find the old session gone (404): each such
    // failure is itself UPSTREAM_UNAVAILABLE and triggers the reconnect.
    let answer = down;
    for (let i = 0; i < 100 && answer.status !== 200; i += 1) {
      await new Promise((r) => setTimeout(r, 150));
      answer = await rest('remote_file_read', { path: 'remote.txt' });
    }
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.data.content, 'remote file\n');
  });

  it('no upstream process is left after shutdown', async () => {
    const health = (await (await fetch(`${base}/health`)).json()) as any;
    const servers = health.plugins.find((p: { name: string }) => p.name === 'upstream').status.detail.servers as Array<{ pid?: number }>;
    const pids = servers.map((s) => s.pid).filter((pid): pid is number => pid !== undefined);
    assert.equal(pids.length, 2);
    await tcp.close();
    await http.close();
    assert.equal(await gateway.stop(), 0);
    for (const pid of pids) await waitFor(() => !isRunning(pid), 5000);
  });
});
