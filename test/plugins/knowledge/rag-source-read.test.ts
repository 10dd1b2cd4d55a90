// rag_ingest's read of one file (readSource): decided on its lstat, then again on the opened
// descriptor before a byte is read. Here the file is swapped or grown between the two, the
// race a folder ingest runs with everything else writing the workspace.
import assert from 'node:assert/strict';
import { appendFileSync, lstatSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createWorkspace } from '../../../core/fs/workspace.js';
import { readSeenSource, readSource } from '../../../plugins/knowledge/rag/source-files.js';
import { tempDir } from '../../helpers.js';

const MAX_FILE_BYTES = 1024 * 1024;

function workspaceWith(text: string) {
  const ws = realpathSync(tempDir('mcpgw-ragread-'));
  const real = join(ws, 'notes.md');
  writeFileSync(real, text);
  return { ws, real, workspace: createWorkspace(ws) };
}

describe('rag: reading a source that changes after its lstat', () => {
  it('reads a file that stayed as it was seen', async () => {
    const { real, workspace } = workspaceWith('# Notes\n');
    const read = await readSeenSource(workspace, real, lstatSync(real), MAX_FILE_BYTES, 100);
    assert.ok('text' in read);
    assert.equal(read.text, '# Notes\n');
  });

  it('skips, unread, a file swapped for another since its lstat: the new one was never checked against the budget', async () => {
    const { ws, real, workspace } = workspaceWith('small\n');
    const seen = lstatSync(real);
    writeFileSync(join(ws, 'other.md'), 'x'.repeat(64 * 1024));
    renameSync(join(ws, 'other.md'), real);
    const read = await readSeenSource(workspace, real, seen, MAX_FILE_BYTES, 100);
    assert.deepEqual(read, { skipped: 'changed while it was being opened: not read', read: 0 });
  });

  it('does not read a file that grew past what is left of maxIngestBytes since its lstat: over budget, 0 bytes read', async () => {
    const { real, workspace } = workspaceWith('ten bytes\n');
    const seen = lstatSync(real);
    appendFileSync(real, 'y'.repeat(64 * 1024));
    const read = await readSeenSource(workspace, real, seen, MAX_FILE_BYTES, 100);
    assert.deepEqual(read, { skipped: `${10 + 64 * 1024} bytes, over what is left of maxIngestBytes: not read`, read: 0, overBudget: true });
  });

  it('does not read a file that grew past maxFileBytes since its lstat', async () => {
    const { real, workspace } = workspaceWith('ten bytes\n');
    const seen = lstatSync(real);
    appendFileSync(real, 'y'.repeat(2048));
    const read = await readSeenSource(workspace, real, seen, 1024, Infinity);
    assert.deepEqual(read, { skipped: `${10 + 2048} bytes, over maxFileBytes (1024): not read`, read: 0 });
  });

  it('readSource applies the same caps to what its own lstat sees', async () => {
    const { real, workspace } = workspaceWith('z'.repeat(500));
    assert.deepEqual(await readSource(workspace, real, MAX_FILE_BYTES, 100), { skipped: '500 bytes, over what is left of maxIngestBytes: not read', read: 0, overBudget: true });
    assert.deepEqual(await readSource(workspace, real, 100), { skipped: '500 bytes, over maxFileBytes (100): not read', read: 0 });
    const read = await readSource(workspace, real, MAX_FILE_BYTES, 500);
    assert.ok('text' in read && read.size === 500);
  });
});
