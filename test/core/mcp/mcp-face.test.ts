import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { mcpFace, type McpKernel } from '../../../core/mcp/mcp-face.js';
import { FIXTURE_REGISTRY, NOTIFY_REGISTRY, startGateway } from '../../helpers.js';

// The MCP face of a gateway (core/mcp/mcp-face.ts): the kernel knows nothing of MCP, and every
// listener that speaks it serves through the one face of its gateway.

describe('the MCP face of a gateway', () => {
  it('is made once per gateway, whoever asks first', async () => {
    const gateway = await startGateway({ registries: [FIXTURE_REGISTRY], plugins: { echo: {} } });
    const [first, second] = await Promise.all([mcpFace(gateway), mcpFace(gateway)]);
    assert.equal(first, second);
    assert.equal(await mcpFace(gateway), first);
  });

  it('announces the channels the enabled plugins declare, and serves sessions on the catalog', async () => {
    const gateway = await startGateway({ registries: [NOTIFY_REGISTRY], plugins: { notify: {} } });
    const face = await mcpFace(gateway);
    assert.deepEqual(face.capabilities.experimental, { 'claude/channel': { channels: ['notify.messages', 'notify.replies'] } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await face.connect(serverSide, { transport: 'memory', peer: 'memory' });
    const client = new Client({ name: 'face-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      assert.deepEqual(client.getServerCapabilities()?.experimental, face.capabilities.experimental);
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), gateway.catalog.list().map((t) => t.listing.name).sort());
    } finally {
      await client.close();
    }
  });

  it('is made again after a failed making', async () => {
    const gateway = await startGateway({ registries: [FIXTURE_REGISTRY], plugins: { echo: {} } });
    // A kernel whose store cannot give the request-state key: the making fails, and is not kept.
    let broken = true;
    const kernel: McpKernel = new Proxy(gateway, {
      get: (target, key, receiver) => (key === 'store' && broken ? { dialect: 'postgres', migrate: () => Promise.reject(new Error('store down')) } : Reflect.get(target, key, receiver)),
    });
    await assert.rejects(mcpFace(kernel), /store down/);
    broken = false;
    const face = await mcpFace(kernel);
    assert.ok(face.capabilities.tools);
  });
});
