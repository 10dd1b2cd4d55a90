import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LogWriter } from '../../../plugins/process/log-writer.js';
import { OutputLog } from '../../../plugins/process/output-log.js';
import { createPipes, openPipe, pipePath, pipeReader } from '../../../plugins/process/output-pipe.js';
import { tempDir } from '../../helpers.js';
import { bootProcess, NODE, ok, script, startNode, track, waitFor } from './process-helpers.js';

const MiB = 1024 * 1024;
const FLOOD_BYTES = 200 * MiB;

/** Prints `total` bytes in 64 KiB lines ("x" × 65535 + "\n"), ending with a marker line, then exits. */
const flood = (total: number): string => `
  const line = 'x'.repeat(65535) + '\\n';
  let left = ${total} / 65536;
  const more = () => {
    while (left > 0) { left--; if (!process.stdout.write(line)) return process.stdout.once('drain', more); }
    process.stdout.write('the end\\n');
  };
  more();`;

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

describe('process plugin: a child that floods its output', () => {
  it('keeps its logs within maxOutputBytes on disk, loses no byte count, and the gateway keeps answering', async () => {
    const cap = MiB;
    const { gateway, client } = await bootProcess({ maxOutputBytes: cap });
    try {
      const view = await startNode(client, flood(FLOOD_BYTES));
      const files = [view.logs.stdout, view.logs.stdout.replace(/\.log$/, '.prev.log')];
      let largest = 0;
      let answeredDuringFlood = 0;
      let done = false;
      while (!done) {
        largest = Math.max(largest, size(files[0]) + size(files[1]));
        const echoed = await ok(client, 'echo', { text: 'still here' });
        const { status, total_bytes } = await ok(client, 'process_output', { id: view.id, stream: 'stdout', tail_lines: 1 });
        assert.match(echoed.text, /still here$/);
        if (status === 'running' && total_bytes < FLOOD_BYTES) answeredDuringFlood += 1;
        done = status !== 'running';
        // In-memory calls settle as microtasks: without a pause the loop would starve the pipe.
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.ok(answeredDuringFlood > 0, 'the gateway answered other calls while the child was flooding');
      assert.ok(largest <= cap, `the logs held ${largest} bytes on disk, over the ${cap}-byte cap`);
      assert.ok(size(files[0]) + size(files[1]) <= cap);

      const tail = await ok(client, 'process_output', { id: view.id, stream: 'stdout', tail_lines: 1 });
      assert.equal(tail.status, 'exited');
      assert.equal(tail.text, 'the end\n', 'the last line made it to the log');
      assert.equal(tail.total_bytes, FLOOD_BYTES + 'the end\n'.length, 'every byte printed is counted');
      const oldest = await ok(client, 'process_output', { id: view.id, stream: 'stdout', offset: 0, max_bytes: 64 });
      assert.ok(oldest.skipped_bytes > FLOOD_BYTES - cap, 'reading from 0 says how much retention dropped');
    } finally {
      await gateway.close();
    }
  });

  it('holds at most a high-water mark and a chunk in memory while the disk side lags behind', async () => {
    const dir = tempDir('mcpgw-flood-');
    await createPipes(dir);
    const ends = openPipe(pipePath(dir, 'stdout'));
    const child = spawn(NODE, script(flood(64 * MiB)), { stdio: ['ignore', ends.write, 'ignore'] });
    track(child.pid!);
    closeSync(ends.write);
    const source = pipeReader(pipePath(dir, 'stdout'), ends.read)!;
    const log = new OutputLog(join(dir, 'stdout.log'), 0);
    const errors: unknown[] = [];
    const writer = new LogWriter(log, source, 256 * 1024, (err) => errors.push(err));
    let largest = 0;
    const sampler = setInterval(() => (largest = Math.max(largest, writer.retainedBytes)), 1);
    try {
      await waitFor(() => child.exitCode !== null, 'the flood to end', 60_000);
      await writer.settle(50, 5000);
    } finally {
      clearInterval(sampler);
    }
    await writer.close();
    assert.deepEqual(errors, []);
    // Buffered: the stream's high-water mark plus one read (64 KiB at most); being written: one chunk.
    assert.ok(largest <= source.readableHighWaterMark + 2 * 64 * 1024, `held ${largest} bytes`);
    assert.ok(largest > 0, 'the sampler saw data in flight');
    assert.equal(log.extent().end, 64 * MiB + 'the end\n'.length);
    assert.ok(size(log.path) + size(log.prevPath) <= 256 * 1024);
    assert.match(readFileSync(log.path, 'utf8'), /the end\n$/);
  });
});
