import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../../helpers.js';
import { bootProcess, ok, startNode, waitFor } from './process-helpers.js';

const mode = (path: string): string => (statSync(path).mode & 0o777).toString(8);

describe('process plugin: files it creates', () => {
  it('makes log folders 0700 and logs and pipes 0600, tightening a logs folder made before', async () => {
    const dir = tempDir('mcpgw-process-');
    // A logs folder left by an older gateway, open to everyone.
    const logsRoot = join(dir, 'data', 'plugins', 'process', 'logs');
    mkdirSync(logsRoot, { recursive: true });
    chmodSync(logsRoot, 0o755);
    const { gateway, client } = await bootProcess({ maxOutputBytes: 4096 }, dir);
    try {
      // 10 KB through a 4 KiB cap: the previous segment exists too.
      const view = await startNode(client, "process.stdout.write('y'.repeat(10_000)); setInterval(() => {}, 1000);");
      await waitFor(async () => (await ok(client, 'process_output', { id: view.id, stream: 'stdout' })).total_bytes === 10_000, 'the output');
      const logDir = dirname(view.logs.stdout);
      assert.equal(dirname(logDir), logsRoot);
      assert.equal(mode(logsRoot), '700');
      assert.equal(mode(logDir), '700');
      const kept = statSync(join(logDir, 'stdout.log')).size + statSync(join(logDir, 'stdout.prev.log')).size;
      assert.equal(kept, 4096, 'a write longer than the cap keeps its last cap of bytes');
      for (const file of ['stdout.log', 'stdout.prev.log', 'stderr.log', 'stdout.pipe', 'stderr.pipe']) {
        assert.equal(mode(join(logDir, file)), '600', file);
      }
    } finally {
      await gateway.close();
    }
  });
});
