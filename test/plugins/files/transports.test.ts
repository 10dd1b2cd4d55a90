import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultJson, socketClient } from '../../helpers.js';
import { filesGateway, realTempDir, snapshot } from './files-helpers.js';

describe('files sandbox: the same refusal over every transport', async () => {
  const base = realTempDir();
  const root = join(base, 'root');
  const outside = realTempDir('mcpgw-outside-');
  mkdirSync(root);
  writeFileSync(join(root, 'file.txt'), 'inside\n');
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  mkdirSync(join(outside, 'dir'));
  symlinkSync(join(outside, 'dir'), join(root, 'out-dir'));
  symlinkSync(join(outside, 'created-by-write.txt'), join(root, 'dangling'));
  symlinkSync('loop', join(root, 'loop'));

  const gateway = await filesGateway(base, { roots: ['root'] }, {
    transports: { tcp: { maxConnections: 16, maxMessageBytes: 10 * 1024 * 1024 }, http: { rateLimit: { max: 0 } } },
  });
  const mcp = gateway.client;
  const { tcp: address } = await gateway.listen({ tcp: true });
  const tcp = (await socketClient({ kind: 'tcp', ...address! })).client;
  after(() => tcp.close());
  const before = snapshot(outside);

  const cases: Array<[string, string, Record<string, unknown>, string, number]> = [
    ['.. to /etc/passwd', 'file_read', { path: '../../../../etc/passwd' }, 'OUTSIDE_WORKSPACE', 403],
    ['an absolute path outside', 'file_write', { path: join(outside, 'new.txt'), content: 'x' }, 'OUTSIDE_WORKSPACE', 403],
    ['a symlink to an outside folder', 'dir_list', { path: 'out-dir' }, 'OUTSIDE_WORKSPACE', 403],
    ['a dangling symlink pointing outside', 'file_write', { path: 'dangling', content: 'x' }, 'OUTSIDE_WORKSPACE', 403],
    ['moving a file out', 'file_rename', { oldPath: 'file.txt', newPath: '../stolen.txt' }, 'OUTSIDE_WORKSPACE', 403],
    ['a null byte', 'file_read', { path: 'file.txt\u0000.png' }, 'INVALID_PATH', 400],
    ['URL-encoded separators', 'file_read', { path: '..%2f..%2fetc%2fpasswd' }, 'INVALID_PATH', 400],
    ['~/.ssh/id_rsa', 'file_delete', { path: '~/.ssh/id_rsa' }, 'INVALID_PATH', 400],
    ['a Windows path', 'file_edit', { path: 'C:\\Windows\\win.ini', old_string: 'a', new_string: 'b' }, 'INVALID_PATH', 400],
    ['a symlink loop', 'file_read', { path: 'loop' }, 'INVALID_PATH', 400],
    ['deleting the root', 'file_delete', { path: '.' }, 'DELETE_REFUSED', 403],
  ];

  for (const [label, tool, args, code, status] of cases) {
    it(`${tool}: ${label} → ${code} over MCP in memory, REST (${status}) and TCP`, async () => {
      const overMemory = await mcp.callTool({ name: tool, arguments: args });
      assert.equal(overMemory.isError, true);
      const expected = resultJson(overMemory);
      assert.equal(expected.code, code, expected.message);

      const rest = await gateway.rest('POST', `/tools/${tool}`, args);
      assert.equal(rest.status, status, rest.text.slice(0, 300));
      assert.deepEqual(rest.body, { success: false, error: expected });

      const overTcp = await tcp.callTool({ name: tool, arguments: args });
      assert.equal(overTcp.isError, true);
      assert.deepEqual(resultJson(overTcp), expected);
    });
  }

  it('a good call still works over all three', async () => {
    const args = { path: 'file.txt' };
    const expected = { path: 'file.txt', content: 'inside\n', language: 'plaintext' };
    assert.deepEqual(resultJson(await mcp.callTool({ name: 'file_read', arguments: args })), expected);
    assert.deepEqual((await gateway.rest('POST', '/tools/file_read', args)).body, { success: true, data: expected });
    assert.deepEqual(resultJson(await tcp.callTool({ name: 'file_read', arguments: args })), expected);
  });

  it('nothing outside the root was created, changed or deleted', () => {
    assert.deepEqual(snapshot(outside), before);
    assert.deepEqual(Object.keys(snapshot(base, ['data'])), ['root', 'root/dangling', 'root/file.txt', 'root/loop', 'root/out-dir']);
    assert.equal(readFileSync(join(root, 'file.txt'), 'utf8'), 'inside\n');
  });
});
