import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../../../core/config.js';
import { createGateway } from '../../../../core/gateway.js';
import { listenHttp } from '../../../../core/http/http-server.js';
import { CONFORMANCE_REGISTRY, testConfigObject } from '../../../helpers.js';
import type { BackendUnderTest } from '../../../support/store-backends.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
};

/** A 2026-07-28 tools/call to the gateway at `base`. */
async function callTool(base: string, params: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(params.name) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: META, arguments: {}, ...params } }),
  });
  return ((await res.json()) as { result: unknown }).result;
}

export function inputRoundCases(backend: BackendUnderTest): void {
  describe('questions to a 2026-07-28 client', () => {
    it('a round begun on one gateway completes on another of the same store: they share the requestState key', async (t) => {
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
      const name = 'test_input_required_result_request_state';
      const first = await callTool(bases[0]!, { name });
      assert.equal(first.resultType, 'input_required');
      const done = await callTool(bases[1]!, { name, inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: first.requestState });
      assert.equal(done.content[0].text, 'state-ok: confirmed=true');
    });
  });
}
