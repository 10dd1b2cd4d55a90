// A plugin's declared code thrown inside a breaker task reaches the caller as that code, not
// INTERNAL_ERROR (docs/plugins/errors.md); a caller's mistake (4xx) does not count against
// the service, a service failure (5xx) does.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { createGateway } from '../../../core/gateway/gateway.js';
import { createLogger } from '../../../core/lib/logger.js';
import { memoryClient, resultJson, tempDir, testConfig } from '../../helpers.js';

const source = `export default {
  name: 'remote', version: '1.0.0', description: 'Raises declared codes inside a breaker task.',
  services: [{ name: 'remote' }],
  errors: {
    REMOTE_NOT_FOUND: { status: 404, mcp: 'result', description: 'The remote has no such item.' },
    REMOTE_BROKEN: { status: 502, mcp: 'result', description: 'The remote answered with an error.' },
  },
  setup(ctx) {
    const remote = ctx.breaker('remote', { volumeThreshold: 100 });
    ctx.tool({
      name: 'remote_get', description: 'Fails as asked, from inside the breaker task.',
      inputSchema: { type: 'object', additionalProperties: false, required: ['fail'], properties: { fail: { enum: ['missing', 'broken'] } } },
      annotations: { readOnlyHint: true },
    }, (args, call) => remote.call(async () => {
      throw args.fail === 'missing' ? ctx.error('REMOTE_NOT_FOUND', 'No such item.', { id: 7 }) : ctx.error('REMOTE_BROKEN', 'The remote answered 500.');
    }, { signal: call.signal }));
  },
};
`;

describe('errors raised inside a breaker task', async () => {
  const dir = tempDir();
  mkdirSync(join(dir, 'registry'));
  writeFileSync(join(dir, 'remote.mjs'), source);
  writeFileSync(join(dir, 'registry', 'remote.yaml'), stringify({ name: 'remote', module: '../remote.mjs' }));
  const config = testConfig(dir, { registries: [join(dir, 'registry')], plugins: { remote: {} } });
  const gateway = await createGateway({ config, log: createLogger('silent'), registryDirs: [] });
  after(() => gateway.close());
  const client = await memoryClient(gateway);
  const stats = () => gateway.breakers.list().find((b) => b.name === 'remote:remote')!.stats;

  it('answers a 4xx declared code as it is, and does not count it against the service', async () => {
    const result = await client.callTool({ name: 'remote_get', arguments: { fail: 'missing' } });
    assert.equal(result.isError, true);
    assert.deepEqual(resultJson(result), { code: 'REMOTE_NOT_FOUND', message: 'No such item.', details: { id: 7 } });
    assert.equal(stats().failures, 0);
  });

  it('answers a 5xx declared code as it is, and counts it as a failure of the service', async () => {
    const result = await client.callTool({ name: 'remote_get', arguments: { fail: 'broken' } });
    assert.equal(result.isError, true);
    assert.deepEqual(resultJson(result), { code: 'REMOTE_BROKEN', message: 'The remote answered 500.' });
    assert.equal(stats().failures, 1);
  });
});
