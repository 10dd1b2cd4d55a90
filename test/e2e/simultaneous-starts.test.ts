import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createInterface } from 'node:readline';
import { safeJson, spawnGateway, tempDir, writeConfig, type GatewayProcess } from '../helpers.js';

/** Rounds of two gateways started together on a new data folder (issue 34, item 13: 1 in 10 to 1 in 14 failed). */
const ROUNDS = 20;

const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'simultaneous', version: '1' } } };

/**
 * One config for every round; the data folder comes from the environment, so that each round
 * starts on a new one with the same --config. The process plugin keeps its tables in
 * gateway.db through ctx.db.migrate: a plugin's migrations race beside core's. `auth: key`
 * (the default): both make or read the owner key.
 */
function raceConfig(dir: string, logLevel = 'warn'): string {
  return writeConfig(dir, {
    dataDir: '${MCPGW_RACE_DATA}',
    workspace: dir,
    logLevel,
    plugins: { process: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
  });
}

/** Speaks to a --stdio gateway in raw JSON-RPC lines: initialize, then tools/list; resolves with both answers. */
async function initializeAndList(gateway: GatewayProcess): Promise<any[]> {
  const lines = createInterface({ input: gateway.child.stdout });
  const answers: any[] = [];
  const ended = new Promise<void>((resolve) => lines.once('close', resolve));
  lines.on('line', (line) => {
    const message = JSON.parse(line);
    assert.equal(message.jsonrpc, '2.0', `stdout carries JSON-RPC only: ${line}`);
    answers.push(message);
    if (message.id === 1) {
      gateway.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
      gateway.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    }
    if (message.id === 2) gateway.child.stdin.end();
  });
  gateway.child.stdin.write(`${JSON.stringify(INITIALIZE)}\n`);
  await ended;
  return answers;
}

/** Lines of the gateway's log at level error or above. */
function errorLines(gateway: GatewayProcess): string[] {
  return gateway.stderrLines.filter((line) => line !== '' && !(Number(safeJson(line)?.level) < 50));
}

describe('gateways started at the same moment on one new data folder', () => {
  it(`both answer initialize and exit cleanly, ${ROUNDS} rounds of two over stdio`, async () => {
    const dir = tempDir();
    const config = raceConfig(dir);
    const cacheDir = join(dir, 'cache');
    for (let round = 1; round <= ROUNDS; round++) {
      const data = join(dir, `data-${round}`);
      const env = { MCPGW_RACE_DATA: data, MCP_GATEWAY_CACHE_DIR: cacheDir };
      const pair = [spawnGateway(['--stdio', '--config', config], { env }), spawnGateway(['--stdio', '--config', config], { env })];
      const answers = await Promise.all(pair.map(initializeAndList));
      const codes = await Promise.all(pair.map((g) => g.exited));
      const context = `round ${round}:\n${pair.map((g) => g.stderrLines.join('\n')).join('\n---\n')}`;
      assert.deepEqual(codes, [0, 0], context);
      for (const [id1, id2] of answers.map((a) => a.map((m) => m.id))) assert.deepEqual([id1, id2], [1, 2], context);
      for (const [init, list] of answers) {
        assert.equal(init.result.serverInfo.name, 'mcp-gateway', context);
        assert.ok(list.result.tools.some((t: { name: string }) => t.name === 'process_start'), context);
      }
      assert.deepEqual(pair.flatMap(errorLines), [], context);
      assert.match(readFileSync(join(data, 'owner.key'), 'utf8'), /^mgw_[A-Za-z0-9_-]{43}\n$/);
    }
    // Both wrote the same cache slot in every round: each file there is a whole snapshot, and
    // no temporary file is left.
    const cached = readdirSync(cacheDir);
    assert.ok(cached.length > 0, 'the catalog cache was written');
    for (const name of cached) {
      assert.match(name, /^stdio-[0-9a-f]{32}\.json$/);
      assert.equal(JSON.parse(readFileSync(join(cacheDir, name), 'utf8')).format, 1);
    }
  });

  it('two `serve` on one unix socket: one serves, the other stops with SOCKET_IN_USE and leaves the socket alone', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    // info: the winner's "listening" line.
    const config = raceConfig(dir, 'info');
    const env = { MCPGW_RACE_DATA: data };
    const socket = join(data, 'gateway.sock');
    const args = ['serve', '--config', config, '--no-http', '--no-tcp', '--unix', socket];
    const pair = [spawnGateway(args, { env }), spawnGateway(args, { env })];
    const first = await Promise.race(pair.map((g, i) => g.exited.then(() => i)));
    const [loser, winner] = [pair[first]!, pair[1 - first]!];
    assert.equal(await loser.exited, 1);
    assert.match(loser.stderrLines.join('\n'), /SOCKET_IN_USE: Another process is serving on .*gateway\.sock/);
    assert.equal((await winner.listening(1))[0]!.kind, 'unix');
    assert.ok(existsSync(socket), 'the winner keeps its socket');
    assert.equal(await winner.stop(), 0);
    assert.equal(existsSync(socket), false);
  });
});
