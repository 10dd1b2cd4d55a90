import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, tempDir, writeConfig } from '../../helpers.js';
import { brainGateway, processConfig } from './brain-helpers.js';

// `mcp-gateway brain export` and `import` through the real binary (npm run build first).

/** A config file for a gateway whose data is in `dataDir`, brain enabled. */
function configFor(dataDir: string, brain: Record<string, unknown> = {}): string {
  const dir = tempDir();
  return writeConfig(dir, processConfig(dir, dataDir, { plugins: { brain }, logLevel: 'info' }));
}

function run(config: string, args: string[], stdin = '') {
  const result = spawnSync(process.execPath, [BIN, '--config', config, 'brain', ...args], { input: stdin, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('mcp-gateway brain export | import', () => {
  it('moves every memory and tombstone to another brain, once, and says what it did', async () => {
    const fromData = join(tempDir(), 'data');
    const from = await brainGateway({ dataDir: fromData }, undefined, 'alice');
    await from.call('brain_remember', { content: 'Builds run on two cores.', type: 'fact', tags: ['ci'] });
    const old = await from.call('brain_remember', { content: 'Deploy on Fridays.', type: 'convention' });
    await from.call('brain_remember', { content: 'Never deploy on Fridays.', type: 'convention', supersedes: old.memory.id });
    const gone = await from.call('brain_remember', { content: 'Forgotten before the move.', type: 'fact' });
    await from.call('brain_forget', { id: gone.memory.id, reason: 'obsolete' });
    const everything = (await from.call('brain_list', { include_forgotten: true, include_superseded: true, include_expired: true })).memories;
    await from.gateway.close();

    const exported = run(configFor(fromData), ['export']);
    assert.equal(exported.code, 0, exported.stderr);
    const lines = exported.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 4, 'stdout holds the memories and nothing else');
    const memories = lines.map((line) => JSON.parse(line));
    assert.deepEqual([...memories].reverse(), everything, 'oldest first, exactly as brain_list shows them');
    assert.match(exported.stderr, /brain export: 4 memories \(local\)/);

    const toData = join(tempDir(), 'data');
    const toConfig = configFor(toData);
    const imported = run(toConfig, ['import'], exported.stdout);
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stdout, 'brain import: imported 4, skipped 0 already present, forgot 0 (local)\n');
    const again = run(toConfig, ['import'], exported.stdout);
    assert.equal(again.stdout, 'brain import: imported 0, skipped 4 already present, forgot 0 (local)\n');

    const to = await brainGateway({ dataDir: toData });
    assert.deepEqual((await to.call('brain_list', { include_forgotten: true, include_superseded: true, include_expired: true })).memories, everything);
    assert.deepEqual((await to.call('brain_recall', { query: 'deploy fridays' })).memories.map((m: any) => m.content), ['Never deploy on Fridays.']);
  });

  it('stops at a bad line, naming it; the lines before it are stored and a rerun skips them', async () => {
    const fromData = join(tempDir(), 'data');
    const from = await brainGateway({ dataDir: fromData });
    await from.call('brain_remember', { content: 'One good memory.', type: 'fact' });
    await from.gateway.close();
    const good = run(configFor(fromData), ['export']).stdout;

    const toConfig = configFor(join(tempDir(), 'data'), { config: { maxContentBytes: 20 } });
    const cases: Array<[string, RegExp]> = [
      ['{not json', /line 2: not JSON/],
      ['{"id": "x"}', /line 2: not a memory/],
      [JSON.stringify({ ...JSON.parse(good), id: '11111111-1111-4111-8111-111111111111', content: 'x'.repeat(21) }), /line 2: content is 21 bytes; a memory holds at most 20/],
    ];
    for (const [bad, message] of cases) {
      const result = run(toConfig, ['import'], `${good}${bad}\n`);
      assert.equal(result.code, 1);
      assert.match(result.stderr, /mcp-gateway: INVALID_ARGUMENTS: /);
      assert.match(result.stderr, message);
      assert.equal(result.stdout, '');
    }
    const result = run(toConfig, ['import'], good);
    assert.equal(result.stdout, 'brain import: imported 0, skipped 1 already present, forgot 0 (local)\n');
    assert.equal(run(toConfig, ['export', 'extra']).code, 1);
  });
});
