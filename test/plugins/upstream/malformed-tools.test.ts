import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { memoryClient, startGateway, tempDir } from '../../helpers.js';
import { fixtureServer, serverStatus } from './upstream-helpers.js';

describe('upstream: a server that lists malformed tools beside good ones', async () => {
  const dir = tempDir('mcpgw-upstream-malformed-');
  const events = join(dir, 'fixture.log');
  const gateway = await startGateway(
    { plugins: { upstream: { config: { servers: [fixtureServer('fix', events, { env: { FIXTURE_LOG: events, FIXTURE_MALFORMED: 'on' } })] } } } },
    dir,
  );
  const client = await memoryClient(gateway);

  it('offers the good tools, and they work', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    for (const name of ['fix_pid', 'fix_fail', 'fix_big', 'fix_touch']) assert.ok(names.includes(name), name);
    const result = await client.callTool({ name: 'fix_pid', arguments: {} });
    assert.equal(typeof (result.structuredContent as { pid: number }).pid, 'number');
  });

  it('refuses each malformed tool alone, named in the status with its reason', () => {
    const status = serverStatus(gateway, 'fix');
    assert.equal(status.listErrors, undefined, 'the listing as a whole did not fail');
    const refused = status.conflicts.filter((c: { upstream: string }) => c.upstream !== 'get_file' && c.upstream !== 'task-only');
    const reasons: string[] = refused.map((c: { reason: string }) => c.reason);
    const expected = [
      /^upstream "fix" \("string-schema"\): it is not an MCP tool: inputSchema\.type: /,
      /^upstream "fix" \("no-schema"\): it is not an MCP tool: inputSchema: /,
      /^upstream "fix" \("bad-type"\): .*its schema does not compile/,
      /^upstream "fix" \("tools\[\d+\]"\): its name is 42, not a string$/,
      /^upstream "fix" \("long-x{75}…"\): its name has 205 characters; MCP allows at most 128$/,
      /^upstream "fix" \("tools\[\d+\]"\): the entry is "not a tool at all", not an object$/,
    ];
    assert.equal(reasons.length, expected.length, JSON.stringify(reasons));
    for (const reason of expected) assert.equal(reasons.filter((r) => reason.test(r)).length, 1, `${reason} in ${JSON.stringify(reasons)}`);
    for (const name of ['fix_string_schema', 'fix_no_schema', 'fix_bad_type']) assert.equal(gateway.catalog.get(name), undefined, name);
  });
});
