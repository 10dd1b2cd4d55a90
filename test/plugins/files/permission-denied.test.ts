import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { resultJson } from '../../helpers.js';
import { filesGateway, realTempDir } from './files-helpers.js';

/**
 * PERMISSION_DENIED needs a folder the OS refuses to write in. A read-only folder does that
 * for a normal user; root ignores modes, but not sysfs, which refuses to create files
 * (EACCES, or EROFS where a container mounts it read-only).
 */
const base = realTempDir();
const asRoot = process.getuid?.() === 0;
if (!asRoot) {
  mkdirSync(join(base, 'locked'));
  chmodSync(join(base, 'locked'), 0o555);
}
const locked = asRoot ? '/sys/kernel' : 'locked';
const skip = asRoot && !existsSync(locked) ? 'needs /sys when run as root' : false;
describe('the files plugin: PERMISSION_DENIED', { skip }, async () => {
  if (skip) return;
  const gateway = await filesGateway(base, { roots: [locked] });
  const { client } = gateway;
  it('writing where the OS refuses → PERMISSION_DENIED', async () => {
    const raw: any = await client.callTool({ name: 'file_write', arguments: { path: 'mcpgw-test.txt', content: 'x' } });
    assert.equal(raw.isError, true);
    const body = resultJson(raw);
    assert.equal(body.code, 'PERMISSION_DENIED', body.message);
  });
});
