import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../../../core/config/config.js';
import { createGateway } from '../../../../core/gateway/gateway.js';
import { listenHttp } from '../../../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, testConfigObject } from '../../../helpers.js';
import { post2026 } from '../../../support/mcp-2026.js';
import type { BackendUnderTest } from '../../../support/store-backends.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
};

/** A 2026-07-28 request to the gateway at `base`: its result. */
async function rpc(base: string, method: string, params: Record<string, unknown>): Promise<any> {
  return (await post2026(base, method, { _meta: META, ...params })).body.result;
}

const callTool = (base: string, params: Record<string, unknown>) => rpc(base, 'tools/call', { arguments: {}, ...params });

/** Two gateways with the conformance plugin on `backend`'s store: their /mcp addresses. */
async function twoGateways(t: { after(fn: () => unknown): void }, backend: BackendUnderTest): Promise<string[]> {
  const target = await backend.fresh();
  const bases: string[] = [];
  // On SQLite the gateways share the dataDir (the key is a file there); on PostgreSQL each has its own.
  for (const dataDir of backend.name === 'sqlite' ? [target.dataDir, target.dataDir] : [`${target.dataDir}-a`, `${target.dataDir}-b`]) {
    const dir = join(dataDir, '..');
    const raw = testConfigObject(dir, { dataDir, storage: target.storage, registries: [CONFORMANCE_REGISTRY], plugins: { conformance: {} } });
    const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }) });
    t.after(() => gateway.close());
    const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
    t.after(() => http.close());
    bases.push(`http://127.0.0.1:${http.address.port}`);
  }
  return bases;
}

/** Polls tasks/get on `base` until the task's status is `status`. */
async function until(base: string, taskId: string, status: string): Promise<any> {
  for (;;) {
    const task = await rpc(base, 'tasks/get', { taskId });
    if (task.status === status) return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function inputRoundCases(backend: BackendUnderTest): void {
  describe('questions and tasks of 2026-07-28 clients across gateways', () => {
    it('a task begun on one gateway is polled, answered and finished through another', async (t) => {
      const [a, b] = await twoGateways(t, backend);
      const { taskId } = await callTool(a!, { name: 'confirm_delete', arguments: { filename: 'shared.txt' } });
      const waiting = await until(b!, taskId, 'input_required');
      const [key] = Object.keys(waiting.inputRequests);
      await rpc(b!, 'tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { confirm: true } } } });
      assert.equal((await until(b!, taskId, 'completed')).result.content[0].text, 'Deleted shared.txt.');
    });

    it('a round begun on one gateway completes on another of the same store: they share the requestState key', async (t) => {
      const bases = await twoGateways(t, backend);
      const name = 'test_input_required_result_request_state';
      const first = await callTool(bases[0]!, { name });
      assert.equal(first.resultType, 'input_required');
      const done = await callTool(bases[1]!, { name, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: first.requestState });
      assert.equal(done.content[0].text, 'state-ok: confirmed=true');
    });
  });
}
