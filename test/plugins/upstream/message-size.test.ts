import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startFloodServer } from '../../fixtures/upstream-server/flood-http-server.js';
import { memoryClient, resultJson, startGateway, tempDir, waitFor } from '../../helpers.js';
import { fixtureServer, pidOf, serverStatus } from './upstream-helpers.js';

const MiB = 1024 * 1024;
const fast = { restartInitialDelayMs: 50, restartMaxDelayMs: 200 };

describe('upstream: a stdio server that answers with more than maxMessageBytes', async () => {
  const dir = tempDir('mcpgw-upstream-size-');
  const events = join(dir, 'fixture.log');
  const gateway = await startGateway(
    {
      plugins: {
        echo: {},
        upstream: {
          config: {
            ...fast,
            servers: [
              fixtureServer('fix', events),
              fixtureServer('tight', events, { maxMessageBytes: MiB, env: { FIXTURE_LOG: events, FIXTURE_RESOURCES: 'off' } }),
            ],
          },
        },
      },
    },
    dir,
  );
  const client = await memoryClient(gateway);

  it('an 11 MiB result fails that call with UPSTREAM_MESSAGE_TOO_LARGE; only that server is restarted, the gateway stays up', async () => {
    const pid = await pidOf(client, 'fix_pid');
    const otherPid = await pidOf(client, 'tight_pid');
    const result = await client.callTool({ name: 'fix_big', arguments: { bytes: 11 * MiB } });
    assert.equal(result.isError, true);
    const error = resultJson(result);
    assert.equal(error.code, 'UPSTREAM_MESSAGE_TOO_LARGE');
    assert.match(error.message, /upstream server "fix" sent a message of more than 10 MiB.*maxMessageBytes/);
    await waitFor(() => serverStatus(gateway, 'fix').state === 'connected' && serverStatus(gateway, 'fix').restarts === 1);
    assert.notEqual(await pidOf(client, 'fix_pid'), pid, 'the server was restarted');
    assert.equal(await pidOf(client, 'tight_pid'), otherPid, 'the other server was not');
    assert.equal(serverStatus(gateway, 'tight').restarts, 0);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.notEqual(echoed.isError, true);
  });

  it('the reason is in the status until the server is back; a result under the bound passes whole', async () => {
    await client.callTool({ name: 'fix_big', arguments: { bytes: 11 * MiB } });
    // Set before the call failed (the connection's close handler runs first); the restart is
    // at least a 40 ms wait and a process start away.
    const down = serverStatus(gateway, 'fix');
    assert.notEqual(down.state, 'connected');
    assert.equal(down.lastError, 'a message passed maxMessageBytes (10 MiB), so the gateway stopped the server to restart it');
    await waitFor(() => serverStatus(gateway, 'fix').state === 'connected');
    assert.equal(serverStatus(gateway, 'fix').lastError, undefined);
    const result = await client.callTool({ name: 'fix_big', arguments: { bytes: 9 * MiB } });
    assert.notEqual(result.isError, true);
    assert.equal((result.content as Array<{ text: string }>)[0]!.text.length, 9 * MiB);
  });

  it('the bound is per server: maxMessageBytes 1 MiB refuses 1.5 MiB and passes 900 KiB', async () => {
    const refused = await client.callTool({ name: 'tight_big', arguments: { bytes: 1.5 * MiB } });
    assert.equal(resultJson(refused).code, 'UPSTREAM_MESSAGE_TOO_LARGE');
    assert.match(resultJson(refused).message, /more than 1 MiB/);
    await waitFor(() => serverStatus(gateway, 'tight').state === 'connected');
    const passed = await client.callTool({ name: 'tight_big', arguments: { bytes: 900 * 1024 } });
    assert.equal((passed.content as Array<{ text: string }>)[0]!.text.length, 900 * 1024);
  });
});

describe('upstream: an HTTP server whose results never end', async () => {
  const LIMIT = 300 * 1000 * 1000;
  const flood = await startFloodServer(LIMIT);
  const dir = tempDir('mcpgw-upstream-flood-');
  const gateway = await startGateway(
    {
      plugins: {
        echo: {},
        upstream: { config: { ...fast, servers: [{ name: 'flood', url: flood.url, timeoutMs: 120_000 }, fixtureServer('fix', join(dir, 'events.log'))] } },
      },
    },
    dir,
  );
  after(() => flood.close());
  const client = await memoryClient(gateway);

  it('four 300 MB results at once, as JSON bodies and as SSE events: each fails with UPSTREAM_MESSAGE_TOO_LARGE, read no further than the bound', async () => {
    const names = ['flood_flood_json', 'flood_flood_sse', 'flood_flood_json', 'flood_flood_sse'];
    // The peak is sampled during these calls only: the process's own peak (maxRSS) would count
    // what the stdio suite above held, and a baseline taken earlier what came since.
    const rssBefore = process.memoryUsage.rss();
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 5);
    const results = await Promise.all(names.map((name) => client.callTool({ name, arguments: {} }))).finally(() => clearInterval(sampler));
    peak = Math.max(peak, process.memoryUsage.rss());
    for (const result of results) {
      assert.equal(resultJson(result).code, 'UPSTREAM_MESSAGE_TOO_LARGE', JSON.stringify(result.content).slice(0, 300));
      assert.match(resultJson(result).message, /upstream server "flood" sent a message of more than 10 MiB/);
    }
    await waitFor(() => flood.sent.length === 4);
    // What the server got out before the gateway hung up: the bound and what sockets buffer, not 300 MB.
    for (const sent of flood.sent) assert.ok(sent < 64 * MiB, `the server wrote ${sent} bytes`);
    assert.ok(peak - rssBefore < 256 * MiB, `the peak RSS grew by ${Math.round((peak - rssBefore) / MiB)} MiB`);
  });

  it('the same server keeps answering, and so do the other upstream and the gateway', async () => {
    const small = await client.callTool({ name: 'flood_small', arguments: {} });
    assert.deepEqual(small.content, [{ type: 'text', text: 'ok' }]);
    assert.equal(serverStatus(gateway, 'flood').state, 'connected');
    assert.equal(typeof (await pidOf(client, 'fix_pid')), 'number');
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.notEqual(echoed.isError, true);
  });

  it('an event over the bound on the GET stream is cut there, and the stream is opened again', async () => {
    await waitFor(() => flood.getSent.length === 1);
    assert.ok(flood.getSent[0]! < 64 * MiB, `the server wrote ${flood.getSent[0]} bytes on the GET stream`);
    // The second GET stream announces tools/list_changed: the gateway lists again and finds `late`.
    await waitFor(() => gateway.catalog.get('flood_late') !== undefined);
  });
});
