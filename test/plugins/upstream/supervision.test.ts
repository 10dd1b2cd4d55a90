import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createGateway } from '../../../core/gateway/gateway.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { createLogger } from '../../../core/lib/logger.js';
import { memoryClient, resultJson, startGateway, tempDir, testConfig, waitFor } from '../../helpers.js';
import { fixtureEvents, fixtureServer, isRunning, pidOf, serverStatus } from './upstream-helpers.js';

const fast = { restartInitialDelayMs: 50, restartMaxDelayMs: 200 };

describe('upstream: a stdio server supervised', async () => {
  const dir = tempDir('mcpgw-upstream-');
  const events = join(dir, 'fixture.log');
  const gateway = await startGateway(
    {
      plugins: {
        echo: {},
        upstream: {
          config: {
            ...fast,
            servers: [fixtureServer('fix', events), fixtureServer('slow', events, { timeoutMs: 300, env: { FIXTURE_LOG: events, FIXTURE_RESOURCES: 'off' } })],
          },
        },
      },
      breakers: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 },
    },
    dir,
  );
  const client = await memoryClient(gateway);

  it('lists the tools with the prefix, as snake_case, with their origin', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['fix_pid', 'fix_wait_for_cancel', 'fix_hang', 'fix_fail', 'fix_add_tool', 'slow_pid']) assert.ok(names.includes(name), name);
    const pid = tools.find((t) => t.name === 'fix_pid')!;
    assert.equal(pid.inputSchema.$schema, 'http://json-schema.org/draft-07/schema#', 'the schema is passed through as written');
    // Lean (tools.listing): types kept, required list left to the gateway's own check of every result.
    assert.deepEqual(pid.outputSchema, { type: 'object', properties: { pid: { type: 'integer' } } });
    assert.equal(gateway.catalog.get('fix_pid')!.definition.origin, 'upstream fix: pid');
  });

  it('two tool names that clash once normalised: one is offered, the other named in status with both sources', () => {
    assert.ok(gateway.catalog.get('fix_get_file'));
    const conflicts = serverStatus(gateway, 'fix').conflicts.filter((c: { name: string }) => c.name === 'fix_get_file');
    assert.equal(conflicts.length, 1);
    assert.match(conflicts[0].reason, /upstream "fix" \("get_file"\) clashes with upstream "fix" \("get-file"\)/);
  });

  it('passes structuredContent through, and a tool failure is UPSTREAM_TOOL_ERROR with its text', async () => {
    const result = await client.callTool({ name: 'fix_pid', arguments: {} });
    assert.equal(typeof (result.structuredContent as { pid: number }).pid, 'number');
    const failed = await client.callTool({ name: 'fix_fail', arguments: { why: 'disk full' } });
    assert.equal(failed.isError, true);
    assert.deepEqual(
      { code: resultJson(failed).code, message: resultJson(failed).message },
      { code: 'UPSTREAM_TOOL_ERROR', message: 'it failed: disk full' },
    );
  });

  it("a server's error answers are UPSTREAM_ERROR and do not open its breaker: it is up", async () => {
    for (let i = 0; i < 4; i += 1) {
      const result = await client.callTool({ name: 'fix_rpc_error', arguments: {} });
      assert.equal(resultJson(result).code, 'UPSTREAM_ERROR');
      assert.match(resultJson(result).message, /the server refuses this/);
    }
    assert.equal(gateway.status().breakers.find((b) => b.name === 'upstream:fix')!.state, 'closed');
    assert.equal(typeof (await pidOf(client, 'fix_pid')), 'number');
  });

  it('a tool that runs only as an MCP task is left out, with the reason in status', () => {
    assert.equal(gateway.catalog.get('fix_task_only'), undefined);
    const left = serverStatus(gateway, 'fix').conflicts.find((c: { upstream: string }) => c.upstream === 'task-only');
    assert.match(left.reason, /runs only as an MCP task/);
  });

  it('validates arguments here, against the server schema', async () => {
    const result = await client.callTool({ name: 'fix_fail', arguments: { why: 42 } });
    assert.equal(resultJson(result).code, 'INVALID_ARGUMENTS');
  });

  it('a cancelled call is cancelled at the server', async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: 'fix_wait_for_cancel', arguments: {} }, { signal: controller.signal });
    await waitFor(() => fixtureEvents(events).some((e) => e.event === 'started'));
    controller.abort('enough');
    await assert.rejects(call);
    await waitFor(() => fixtureEvents(events).some((e) => e.event === 'cancelled'));
  });

  it('a server that hangs: BREAKER_TIMEOUT, then its breaker opens and answers at once', async () => {
    for (let i = 0; i < 2; i += 1) {
      const result = await client.callTool({ name: 'slow_hang', arguments: {} });
      assert.equal(resultJson(result).code, 'BREAKER_TIMEOUT');
    }
    const breaker = () => gateway.status().breakers.find((b) => b.name === 'upstream:slow')!;
    const before = breaker().stats;
    const refused = await client.callTool({ name: 'slow_pid', arguments: {} });
    assert.equal(resultJson(refused).code, 'BREAKER_OPEN');
    // Answered without asking the server: the breaker rejected the call, nothing timed out.
    assert.equal(breaker().stats.rejects, before.rejects + 1);
    assert.equal(breaker().stats.timeouts, before.timeouts);
    assert.equal(breaker().state, 'open');
    assert.equal(serverStatus(gateway, 'fix').state, 'connected', 'the other server is untouched');
  });

  it('a server killed mid-call: the call fails with UPSTREAM_UNAVAILABLE, the server is restarted, the next call works', async () => {
    const pid = await pidOf(client, 'fix_pid');
    const call = client.callTool({ name: 'fix_wait_for_cancel', arguments: {} });
    await waitFor(() => fixtureEvents(events).filter((e) => e.event === 'started' && e.pid === pid).length > 0);
    process.kill(pid, 'SIGKILL');
    const result = await call;
    assert.equal(resultJson(result).code, 'UPSTREAM_UNAVAILABLE');
    assert.match(resultJson(result).message, /upstream server "fix"/);
    await waitFor(() => serverStatus(gateway, 'fix').state === 'connected' && serverStatus(gateway, 'fix').restarts === 1);
    const again = await pidOf(client, 'fix_pid');
    assert.notEqual(again, pid);
  });

  it('list_changed from the server adds the new tool and is passed on to clients', async () => {
    let announced = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      announced += 1;
    });
    await client.callTool({ name: 'fix_add_tool', arguments: {} });
    await waitFor(() => gateway.catalog.get('fix_late') !== undefined);
    await waitFor(() => announced > 0);
    const late = await client.callTool({ name: 'fix_late', arguments: {} });
    assert.deepEqual(late.content, [{ type: 'text', text: 'late' }]);
  });

  it('a subscription reaches the server once, and its updates reach the subscriber', async () => {
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', ({ params }) => {
      updates.push(params.uri);
    });
    const second = await memoryClient(gateway, 'second');
    await client.subscribeResource({ uri: 'fixture://counter' });
    await second.subscribeResource({ uri: 'fixture://counter' });
    await client.callTool({ name: 'fix_touch', arguments: {} });
    await waitFor(() => updates.includes('fixture://counter'));
    const read = await client.readResource({ uri: 'fixture://counter' });
    assert.deepEqual(read.contents, [{ uri: 'fixture://counter', mimeType: 'text/plain', text: '1' }]);
    await client.unsubscribeResource({ uri: 'fixture://counter' });
    await second.unsubscribeResource({ uri: 'fixture://counter' });
    await waitFor(() => fixtureEvents(events).some((e) => e.event === 'unsubscribed'));
    const subscribed = fixtureEvents(events).filter((e) => e.event === 'subscribed' && e.uri === 'fixture://counter');
    assert.equal(subscribed.length, 1, 'two subscribers here, one subscription there');
  });

  it('a subscription held here is made again at a restarted server, so updates keep coming', async () => {
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', ({ params }) => {
      updates.push(params.uri);
    });
    await client.subscribeResource({ uri: 'fixture://counter' });
    const restarts = serverStatus(gateway, 'fix').restarts;
    process.kill(await pidOf(client, 'fix_pid'), 'SIGKILL');
    await waitFor(() => serverStatus(gateway, 'fix').state === 'connected' && serverStatus(gateway, 'fix').restarts === restarts + 1);
    const pid = await pidOf(client, 'fix_pid');
    await waitFor(() => fixtureEvents(events).some((e) => e.event === 'subscribed' && e.pid === pid));
    await client.callTool({ name: 'fix_touch', arguments: {} });
    await waitFor(() => updates.includes('fixture://counter'));
    await client.unsubscribeResource({ uri: 'fixture://counter' });
  });

  it('status in gateway_status: kind, state, pid, tools; ok while every server is connected', () => {
    const fix = serverStatus(gateway, 'fix');
    assert.equal(fix.kind, 'stdio');
    assert.ok(fix.tools.includes('fix_pid'));
    assert.equal(typeof fix.pid, 'number');
    const plugin = gateway.status().plugins.find((p) => p.name === 'upstream')!;
    assert.equal(plugin.status!.ok, true);
  });

  it('its state on /metrics: connected, restarts and tools per server', async () => {
    const app = await createHttpApp(gateway);
    try {
      const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
      assert.match(text, /^mcp_gateway_upstream_connected\{server="fix"\} 1$/m);
      assert.match(text, /^mcp_gateway_upstream_restarts\{server="fix"\} 2$/m);
      assert.match(text, /^mcp_gateway_upstream_tools\{server="slow"\} \d+$/m);
    } finally {
      await app.close();
    }
  });

  it('no server process is left once the gateway has closed', async () => {
    const pids = [await pidOf(client, 'fix_pid')];
    await gateway.close();
    for (const pid of pids) await waitFor(() => !isRunning(pid), 5000);
  });
});

describe('upstream: servers that cannot start', () => {
  it('an optional server that cannot start: the gateway starts, and status says why and reports ok: false', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const gateway = await startGateway(
      { plugins: { echo: {}, upstream: { config: { ...fast, servers: [{ name: 'gone', command: join(dir, 'no-such-command'), optional: true }] } } } },
      dir,
    );
    const status = serverStatus(gateway, 'gone');
    assert.notEqual(status.state, 'connected');
    assert.match(status.lastError, /ENOENT/);
    const plugin = gateway.status().plugins.find((p) => p.name === 'upstream')!;
    assert.equal(plugin.status!.ok, false);
  });

  it('a server that is not optional and cannot start stops the boot with the reason', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const config = testConfig(dir, { plugins: { echo: {}, upstream: { config: { servers: [{ name: 'gone', command: join(dir, 'no-such-command') }] } } } });
    await assert.rejects(createGateway({ config, log: createLogger('silent') }), (err: Error & { code?: string }) => {
      assert.match(err.message, /upstream server "gone" did not start: .*ENOENT.*optional: true/s);
      return true;
    });
  });

  it('a server with both command and url is refused at boot', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const config = testConfig(dir, { plugins: { upstream: { config: { servers: [{ name: 'both', command: 'x', url: 'http://127.0.0.1:1/mcp' }] } } } });
    await assert.rejects(createGateway({ config, log: createLogger('silent') }), /give either command .* or url/);
  });
});

describe('upstream: which tools, under which names', () => {
  it('include and exclude pick by the server’s own names; an empty prefix keeps them bare', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const server = fixtureServer('fix', join(dir, 'events.log'), { prefix: '', include: ['pid', 'fail', 'get*', 'task*'], exclude: ['get-*', 'task*'] });
    const gateway = await startGateway({ plugins: { upstream: { config: { servers: [server] } } } }, dir);
    const names = gateway.catalog.list().filter((t) => t.plugin === 'upstream').map((t) => t.listing.name).sort();
    assert.deepEqual(names, ['fail', 'get_file', 'pid']);
    assert.equal(serverStatus(gateway, 'fix').conflicts, undefined, 'get-file was excluded, so get_file clashes with nothing');
  });

  it('whenDown: withdraw takes a dead server’s tools away and gives them back once it is restarted', async () => {
    const dir = tempDir('mcpgw-upstream-');
    const gateway = await startGateway(
      { plugins: { echo: {}, upstream: { config: { ...fast, whenDown: 'withdraw', servers: [fixtureServer('fix', join(dir, 'events.log'))] } } } },
      dir,
    );
    const client = await memoryClient(gateway);
    let announced = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      announced += 1;
    });
    const pid = await pidOf(client, 'fix_pid');
    process.kill(pid, 'SIGKILL');
    await waitFor(() => gateway.catalog.get('fix_pid') === undefined);
    assert.ok(gateway.catalog.list().some((t) => t.plugin === 'echo'), 'other plugins keep theirs');
    await waitFor(() => gateway.catalog.get('fix_pid') !== undefined);
    await waitFor(() => announced >= 2);
    assert.notEqual(await pidOf(client, 'fix_pid'), pid);
  });
});
