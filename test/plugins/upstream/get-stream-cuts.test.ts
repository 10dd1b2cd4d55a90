// An SSE event over maxMessageBytes cuts its stream, and the SDK opens the GET stream again:
// these servers would make that a loop of 64 KiB (10 MiB by default) reads, 100 a second (their
// streams say `retry: 10`), for as long as the gateway runs. One replays the oversized event to
// every stream that resumes (as a server with an event store does); the other sends a new one on
// every stream. The GETs each server received are counted: no time is asserted.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startFloodServer } from '../../fixtures/upstream-server/flood-http-server.js';
import { memoryClient, startGateway, tempDir, waitFor } from '../../helpers.js';
import { fixtureServer, serverStatus } from './upstream-helpers.js';

const KiB = 1024;

describe('upstream: GET streams cut over maxMessageBytes are not reopened in a loop', async () => {
  const replay = await startFloodServer(4 * KiB * KiB, 'replay');
  const always = await startFloodServer(4 * KiB * KiB, 'always');
  after(() => Promise.all([replay.close(), always.close()]));
  const dir = tempDir('mcpgw-upstream-get-cuts-');
  const bounded = { maxMessageBytes: 64 * KiB };
  const gateway = await startGateway(
    {
      plugins: {
        echo: {},
        upstream: {
          config: {
            restartInitialDelayMs: 50,
            restartMaxDelayMs: 200,
            servers: [{ name: 'replay', url: replay.url, ...bounded }, { name: 'always', url: always.url, ...bounded }, fixtureServer('fix', join(dir, 'events.log'))],
          },
        },
      },
    },
    dir,
  );
  const client = await memoryClient(gateway);

  it('after a cut the GET stream is opened afresh, not resumed, so a replaying server does not send the event again', async () => {
    // The second stream announces tools/list_changed; a resumed one would have replayed the event.
    await waitFor(() => gateway.catalog.get('replay_late') !== undefined);
    assert.equal(replay.resumes, 0, 'no GET asked to resume');
    assert.equal(replay.gets, 2);
    const status = serverStatus(gateway, 'replay');
    assert.equal(status.state, 'connected');
    assert.equal(status.getStreamStopped, undefined);
  });

  it('a server that sends one on every GET stream: after three cuts no GET stream is opened, the status says why, calls go on', async () => {
    await waitFor(() => serverStatus(gateway, 'always').getStreamStopped !== undefined);
    // Set when the gateway answered the SDK's fourth GET itself, with 405 ("no GET stream
    // here"), which the SDK does not retry: the server saw three.
    assert.equal(always.gets, 3);
    assert.equal(always.resumes, 0);
    const status = serverStatus(gateway, 'always');
    assert.equal(status.state, 'connected');
    assert.match(status.getStreamStopped, /^the server sent 3 events over maxMessageBytes \(64 KiB\) on its GET stream, so the gateway stopped opening it: .* until the gateway connects to it again$/);
    const small = await client.callTool({ name: 'always_small', arguments: {} });
    assert.deepEqual(small.content, [{ type: 'text', text: 'ok' }]);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: 'still here' } });
    assert.notEqual(echoed.isError, true);
    assert.equal(always.gets, 3);
  });
});
