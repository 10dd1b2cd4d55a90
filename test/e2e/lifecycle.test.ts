import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BIN, spawnGateway, tempDir, testConfigObject, waitFor, writeConfig } from '../helpers.js';

/**
 * Every named point of `serve`'s start-up, in order, from before the config and the registry
 * are read to after every listener is up (the checkpoints of lifecycle.ts, gateway.ts,
 * plugin-host.ts, http-server.ts and socket-server.ts). The binary pauses at the one
 * MCP_GATEWAY_TEST_PAUSE_AT names, so the signal arrives exactly there.
 */
const SERVE_POINTS = [
  'start',
  'config-read',
  'workspace-opened',
  'data-dir-ready',
  'database-opened',
  'audit-opened',
  'registry-reading',
  'registry-read',
  'plugins-imported',
  'plugin-setup:echo',
  'plugins-ready',
  'gateway-ready',
  'http-starting',
  'http-app-built',
  'http-listening',
  'tcp-starting',
  'tcp-listening',
  'unix-starting',
  'unix-listening',
  'listening',
  'ready',
];

function pausedAt(lines: readonly string[], point: string): boolean {
  return lines.some((line) => line.includes(`"msg":"paused at ${point}"`));
}

describe('a signal at any moment of start-up', () => {
  const dir = tempDir();
  // The shipped budget: exit 0 proves shutdown finished within it (the watchdog exits 1 past it).
  const config = writeConfig(dir, testConfigObject(dir, { logLevel: 'info' }));

  for (const [index, point] of SERVE_POINTS.entries()) {
    it(`serve, SIGTERM at ${point}: exit 0, nothing left behind`, async () => {
      const socketPath = join(dir, `gw-${index}.sock`);
      const gateway = spawnGateway(['serve', '--config', config, '--http', '127.0.0.1:0', '--tcp', '127.0.0.1:0', '--unix', socketPath], {
        env: { MCP_GATEWAY_TEST_PAUSE_AT: point },
      });
      await waitFor(() => pausedAt(gateway.stderrLines, point) || gateway.child.exitCode !== null, 30_000);
      assert.ok(pausedAt(gateway.stderrLines, point), `never reached ${point}:\n${gateway.stderrLines.join('\n')}`);
      const code = await gateway.stop('SIGTERM');
      const log = gateway.stderrLines.join('\n');
      assert.equal(code, 0, log);
      assert.equal(existsSync(socketPath), false, 'no socket file is left');
      // (Before the config is read there is no logger yet.)
      if (point !== 'start') assert.match(log, /"msg":"stopped"/);
      assert.doesNotMatch(log, /did not finish within the budget/);
    });
  }

  it('serve, paused between the HTTP and the TCP listener: /health answers 503 "booting", then SIGTERM ends it', async () => {
    const socketPath = join(dir, 'gw-health.sock');
    const gateway = spawnGateway(['serve', '--config', config, '--http', '127.0.0.1:0', '--tcp', '127.0.0.1:0', '--unix', socketPath], {
      env: { MCP_GATEWAY_TEST_PAUSE_AT: 'tcp-starting' },
    });
    const [http] = await gateway.listening(1);
    await waitFor(() => pausedAt(gateway.stderrLines, 'tcp-starting'), 30_000);
    assert.equal(http!.kind, 'http');
    const response = await fetch(`http://127.0.0.1:${(http as { port: number }).port}/health`);
    assert.equal(response.status, 503);
    const body = (await response.json()) as { status: string; state: string };
    assert.deepEqual([body.status, body.state], ['booting', 'booting']);
    assert.equal(await gateway.stop('SIGTERM'), 0, gateway.stderrLines.join('\n'));
    assert.equal(existsSync(socketPath), false);
  });

  for (const point of ['config-read', 'plugin-setup:echo', 'gateway-ready']) {
    it(`--stdio, SIGTERM at ${point}: exit 0`, async () => {
      const child = stdioGateway(config, point);
      await waitFor(() => pausedAt(child.lines, point), 30_000);
      child.process.kill('SIGTERM');
      assert.equal(await child.exited, 0, child.lines.join('\n'));
      assert.equal(child.stdout(), '', 'nothing but JSON-RPC on stdout, and there was no request');
    });
  }

  // stdin is read from the moment the config is (its size cap comes from there).
  for (const point of ['workspace-opened', 'plugin-setup:echo', 'gateway-ready']) {
    it(`--stdio, stdin closed at ${point}: exit 0`, async () => {
      const child = stdioGateway(config, point);
      await waitFor(() => pausedAt(child.lines, point), 30_000);
      child.process.stdin.end();
      assert.equal(await child.exited, 0, child.lines.join('\n'));
    });
  }

  it('--stdio: a request sent while the gateway boots is answered once it is up', async () => {
    const child = stdioGateway(config, undefined);
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'early', version: '1' } } };
    child.process.stdin.write(`${JSON.stringify(initialize)}\n`);
    await waitFor(() => child.stdout().includes('"id":1'), 30_000);
    assert.equal(JSON.parse(child.stdout().split('\n')[0]!).result.serverInfo.name, 'mcp-gateway');
    child.process.stdin.end();
    assert.equal(await child.exited, 0);
  });
});

function stdioGateway(config: string, pauseAt: string | undefined) {
  const env = { ...process.env };
  if (pauseAt) env.MCP_GATEWAY_TEST_PAUSE_AT = pauseAt;
  else delete env.MCP_GATEWAY_TEST_PAUSE_AT;
  const child = spawn(process.execPath, [BIN, '--stdio', '--config', config], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return {
    process: child,
    exited,
    get lines() {
      return err.split('\n');
    },
    stdout: () => out,
  };
}
