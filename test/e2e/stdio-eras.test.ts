import assert from 'node:assert/strict';
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { Client, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, resultJson, tempDir, writeConfig } from '../helpers.js';

const MODERN = '2026-07-28';

/** A config with the files plugin and no `workspace`, and a project folder holding `note.txt`. */
function setUp(): { config: string; project: string; cwd: string } {
  const cwd = tempDir();
  const config = writeConfig(cwd, {
    dataDir: join(cwd, 'data'),
    auth: 'none',
    plugins: { files: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
  });
  const project = realpathSync(tempDir('mcpgw-project-'));
  writeFileSync(join(project, 'note.txt'), 'inside\n');
  return { config, project, cwd };
}

/** `mcp-gateway --stdio` spawned by SDK v2's client, as Claude Code and Cursor spawn it. */
async function spawnClient(args: string[], cwd: string, options: ClientOptions): Promise<Client> {
  const client = new Client({ name: 'stdio-eras', version: '1.0.0' }, options);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', ...args], cwd, stderr: 'ignore' }));
  after(() => client.close());
  return client;
}

describe('--stdio in both eras (SDK v2 client, real binary)', () => {
  it('serves 2026-07-28 with --workspace to a client that discovers first, as Claude Code does', async () => {
    const { config, project, cwd } = setUp();
    const client = await spawnClient(['--config', config, '--workspace', project], cwd, { versionNegotiation: { mode: 'auto' } });
    assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
    const read = await client.callTool({ name: 'file_read', arguments: { path: 'note.txt' } });
    assert.equal(read.isError, undefined, JSON.stringify(read));
    assert.match(JSON.stringify(read.structuredContent), /inside/);
  });

  it('without a workspace, a client that discovers first falls back to 2025-11-25 and its roots name the workspace', async () => {
    const { config, project, cwd } = setUp();
    const client = await spawnClient(['--config', config], cwd, { versionNegotiation: { mode: 'auto' }, capabilities: { roots: {} } });
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: pathToFileURL(project).href }] }));
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const read = await client.callTool({ name: 'file_read', arguments: { path: 'note.txt' } });
    assert.equal(read.isError, undefined, JSON.stringify(read));
  });

  it('without a workspace, does not offer 2026-07-28 to a client pinned to it (roots are 2025 only)', async () => {
    const { config, cwd } = setUp();
    await assert.rejects(spawnClient(['--config', config], cwd, { versionNegotiation: { mode: { pin: MODERN } } }), /did not offer pinned protocol version 2026-07-28/);
  });

  it('answers a 2026 call with the same codes as a 2025 one: an unknown tool, bad arguments', async () => {
    const { config, project, cwd } = setUp();
    const client = await spawnClient(['--config', config, '--workspace', project], cwd, { versionNegotiation: { mode: { pin: MODERN } } });
    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err: any) => err.code === -32602 && err.data.code === 'UNKNOWN_TOOL');
    assert.equal(resultJson(await client.callTool({ name: 'file_read', arguments: { path: 42 } })).code, 'INVALID_ARGUMENTS');
  });
});
