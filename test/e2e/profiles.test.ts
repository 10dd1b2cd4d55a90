import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, tempDir, testConfigObject, writeConfig } from '../helpers.js';

describe('--profile on the binary', () => {
  const dir = tempDir();
  const config = writeConfig(
    dir,
    testConfigObject(dir, { profiles: { quiet: { tools: ['echo'] }, failing: { tools: ['echo_fail'] } }, defaultProfile: 'failing' }),
  );

  async function stdioTools(args: string[]): Promise<string[]> {
    const client = new Client({ name: 'profiles-e2e', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config, ...args], stderr: 'pipe' }));
    try {
      return (await client.listTools()).tools.map((t) => t.name).sort();
    } finally {
      await client.close();
    }
  }

  it('serves the named profile over stdio, and the default without one', async () => {
    const [quiet, failing, all] = await Promise.all([stdioTools(['--profile', 'quiet']), stdioTools([]), stdioTools(['--profile', 'all'])]);
    assert.deepEqual(quiet, ['echo', 'gateway_call_tool', 'gateway_find_tools']);
    assert.deepEqual(failing, ['echo_fail', 'gateway_call_tool', 'gateway_find_tools']);
    assert.ok(all.includes('gateway_status') && all.includes('echo_sleep'), all.join(' '));
  });

  it('refuses an unknown profile, naming the ones there are', () => {
    const result = spawnSync(process.execPath, [BIN, '--stdio', '--config', config, '--profile', 'nope'], { input: '', encoding: 'utf8', timeout: 30_000 });
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /PROFILE_NOT_FOUND: No profile is named "nope"\. The profiles are: all, quiet, failing\./);
  });
});
