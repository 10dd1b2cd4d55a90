import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startTestGateway } from '../../../core/testing.js';
import { tempDir } from '../../helpers.js';
import { ECHO_REGISTRY, NODE, script } from './process-helpers.js';

// The same tools through the REST bridge: one schema, the error table's HTTP statuses.
describe('process plugin over REST', async () => {
  const dir = tempDir();
  const gateway = await startTestGateway({
    registries: [ECHO_REGISTRY],
    builtinRegistry: true,
    plugins: { process: { config: { deny: ['rm'] } } },
    workspace: dir,
    store: { storage: { shared: 'sqlite' }, dataDir: join(dir, 'data') },
    config: { transports: { http: { rateLimit: { max: 0 } } } },
  });
  after(() => gateway.close());
  const post = (tool: string, body: unknown) => gateway.rest('POST', `/tools/${tool}`, body);

  it('runs a command: 200 with {success: true, data}', async () => {
    const res = await post('process_run', { command: NODE, args: script("console.log('over rest')") });
    assert.equal(res.status, 200);
    const { body } = res;
    assert.equal(body.success, true);
    assert.equal(body.data.stdout, 'over rest\n');
    assert.equal(body.data.exit_code, 0);
  });

  const statuses: Array<[string, string, unknown, number, string]> = [
    ['an unknown id', 'process_stop', { id: 'proc-999999' }, 404, 'PROCESS_NOT_FOUND'],
    ['a denied command', 'process_start', { command: 'rm', args: ['x'] }, 403, 'PROCESS_NOT_ALLOWED'],
    ['a missing command', 'process_run', { command: 'no-such-command-xyz' }, 404, 'PROCESS_COMMAND_NOT_FOUND'],
    ['a cwd outside the workspace', 'process_run', { command: NODE, cwd: '/' }, 403, 'OUTSIDE_WORKSPACE'],
    ['a string where a number goes', 'process_output', { id: 'proc-1', max_bytes: '10' }, 400, 'INVALID_ARGUMENTS'],
  ];
  for (const [label, tool, body, status, code] of statuses) {
    it(`${tool} with ${label}: ${status} ${code}`, async () => {
      const res = await post(tool, body);
      assert.equal(res.status, status);
      assert.equal(res.body.success, false);
      assert.equal(res.body.error.code, code);
    });
  }

  it('describes every process tool in a valid OpenAPI document', async () => {
    const doc = (await gateway.rest('GET', '/openapi.json')).body;
    for (const tool of ['process_start', 'process_list', 'process_output', 'process_input', 'process_stop', 'process_kill', 'process_run', 'process_free_port']) {
      assert.ok(doc.paths[`/tools/${tool}`], tool);
    }
    await SwaggerParser.validate(structuredClone(doc));
  });
});
