import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANY_RESULT, memoryClient, recordWireErrors, startGateway, waitFor, WITH_LIBRARY } from '../../helpers.js';

/** The row the audit log wrote for the latest read of `uri`. */
function auditRow(gateway: Awaited<ReturnType<typeof startGateway>>, uri: string) {
  gateway.audit?.flush();
  return gateway.db.prepare('SELECT kind, plugin, outcome, transport, caller FROM core_audit WHERE tool = ? ORDER BY id DESC LIMIT 1').get(uri) as
    | { kind: string; plugin: string | null; outcome: string; transport: string; caller: string }
    | undefined;
}

describe('resources over the in-memory pair (real SDK client)', async () => {
  const gateway = await startGateway(WITH_LIBRARY);
  const client = await memoryClient(gateway, 'resource-test');

  it('advertises resources with subscribe and listChanged, prompts and completions', () => {
    const capabilities = client.getServerCapabilities()!;
    assert.deepEqual(capabilities.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(capabilities.prompts, { listChanged: true });
    assert.deepEqual(capabilities.completions, {});
  });

  it('lists static resources with their metadata, and templates apart', async () => {
    const { resources } = await client.listResources();
    const readme = resources.find((r) => r.uri === 'library://readme')!;
    assert.deepEqual(readme, {
      uri: 'library://readme',
      name: 'readme',
      title: 'Read me',
      description: 'What the library holds.',
      mimeType: 'text/markdown',
      annotations: { audience: ['user'], priority: 0.5 },
    });
    assert.equal(resources.find((r) => r.uri === 'library://logo.png')!.size, 70);
    assert.ok(resources.every((r) => !r.uri.includes('{')));
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate), ['library://books/{id}', 'library://search{?q,limit}']);
    assert.equal(resourceTemplates[0]!.mimeType, 'text/plain');
  });

  it('reads text with the definition\'s MIME type', async () => {
    const { contents } = await client.readResource({ uri: 'library://readme' });
    assert.deepEqual(contents, [{ uri: 'library://readme', mimeType: 'text/markdown', text: '# Library\nBooks by id under library://books/{id}.' }]);
    assert.deepEqual(auditRow(gateway, 'library://readme'), { kind: 'resource', plugin: 'library', outcome: 'ok', transport: 'memory', caller: 'resource-test' });
  });

  it('reads bytes as a base64 blob', async () => {
    const { contents } = await client.readResource({ uri: 'library://logo.png' });
    const [logo] = contents as Array<{ blob: string; mimeType: string }>;
    assert.equal(logo!.mimeType, 'image/png');
    assert.ok(Buffer.from(logo!.blob, 'base64').subarray(1, 4).equals(Buffer.from('PNG')));
  });

  it('reads through a template, with its variables decoded and the caller known', async () => {
    const { contents } = await client.readResource({ uri: 'library://books/dune' });
    assert.deepEqual(contents, [{ uri: 'library://books/dune', mimeType: 'text/plain', text: 'A desert planet. (read by memory)' }]);
  });

  it('reads a query template, optional variables left out, several contents', async () => {
    const all = await client.readResource({ uri: 'library://search' });
    assert.equal(all.contents.length, 3);
    const some = await client.readResource({ uri: 'library://search?q=d&limit=1' });
    assert.deepEqual(some.contents.map((c) => c.uri), ['library://books/dune']);
  });

  const failures: Array<[string, string, number, string]> = [
    ['not a URI', 'not a uri', -32602, 'INVALID_URI'],
    ['a relative reference', '/books/dune', -32602, 'INVALID_URI'],
    ['an unknown URI', 'library://nothing-here', -32002, 'RESOURCE_NOT_FOUND'],
    ['a URI of an unknown scheme', 'other://readme', -32002, 'RESOURCE_NOT_FOUND'],
    ['template variables the schema refuses', 'library://books/Not_Valid', -32602, 'RESOURCE_VARIABLES_INVALID'],
    ['a template value that is not UTF-8', 'library://books/%FF', -32602, 'INVALID_URI'],
    ['a book the reader does not have (a core code from the plugin)', 'library://books/ulysses', -32002, 'RESOURCE_NOT_FOUND'],
    ['a declared plugin error', 'library://refused', -32600, 'LIBRARY_REFUSED'],
    ['an unexpected throw', 'library://broken', -32603, 'INTERNAL_ERROR'],
    ['a reader returning something that is not contents', 'library://bad-output', -32603, 'INTERNAL_ERROR'],
  ];
  for (const [label, uri, code, stable] of failures) {
    it(`refuses ${label} with ${stable}`, async () => {
      // Checked as the answer came on the wire: SDK v2's client rewrites a resource-not-found.
      const wire = recordWireErrors(client);
      await assert.rejects(client.readResource({ uri }));
      const err = wire.at(-1)!;
      assert.equal(err.code, code);
      assert.equal(err.data.code, stable);
      assert.doesNotMatch(err.message, /secret|passwd/);
      assert.equal(auditRow(gateway, uri)?.outcome, stable);
    });
  }

  it('gives template variable problems as details', async () => {
    await assert.rejects(client.readResource({ uri: 'library://books/Not_Valid' }), (err: any) => {
      assert.deepEqual(err.data.details, [{ path: '/id', message: 'must match pattern "^[a-z0-9-]+$"' }]);
      assert.match(err.message, /library:\/\/books\/\{id\}/);
      return true;
    });
  });

  it('answers malformed params with INVALID_PARAMS and a sentence, not zod\'s JSON', async () => {
    for (const method of ['resources/read', 'resources/subscribe']) {
      await assert.rejects(client.request({ method, params: { uri: 42 } } as never, ANY_RESULT), (err: any) => {
        assert.equal(err.code, -32602);
        assert.equal(err.data.code, 'INVALID_PARAMS');
        assert.match(err.message, /"uri" must be a string/);
        return true;
      });
    }
  });

  it('times a stuck reader out with TOOL_TIMEOUT', async () => {
    await assert.rejects(client.readResource({ uri: 'library://stuck' }), (err: any) => err.data.code === 'TOOL_TIMEOUT');
  });

  it('cancels a read when the client cancels, and records it', async () => {
    const controller = new AbortController();
    const read = client.readResource({ uri: 'library://slow' }, { signal: controller.signal });
    setTimeout(() => controller.abort('changed my mind'), 50);
    await assert.rejects(read, /changed my mind|abort/i);
    await waitFor(() => auditRow(gateway, 'library://slow')?.outcome === 'CANCELLED');
  });

  it('sends resources/updated to the subscribed session only, until it unsubscribes', async () => {
    const other = await memoryClient(gateway, 'not-subscribed');
    const received: string[] = [];
    const elsewhere: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void received.push(n.params.uri));
    other.setNotificationHandler('notifications/resources/updated', (n) => void elsewhere.push(n.params.uri));
    await client.subscribeResource({ uri: 'library://books/emma' });
    await other.subscribeResource({ uri: 'library://books/dune' });
    await client.callTool({ name: 'library_write', arguments: { id: 'emma', text: 'Revised.' } });
    await waitFor(() => received.length === 1);
    assert.deepEqual(received, ['library://books/emma']);
    const { contents } = await client.readResource({ uri: 'library://books/emma' });
    assert.match((contents[0] as { text: string }).text, /^Revised\./);

    await client.unsubscribeResource({ uri: 'library://books/emma' });
    await client.callTool({ name: 'library_write', arguments: { id: 'emma', text: 'Again.' } });
    // The write that reaches `other`'s subscription proves the notifications went out.
    await other.callTool({ name: 'library_write', arguments: { id: 'dune', text: 'Sand.' } });
    await waitFor(() => elsewhere.length === 1);
    assert.deepEqual(received, ['library://books/emma']);
    assert.deepEqual(elsewhere, ['library://books/dune']);
  });

  it('refuses a subscription to an unknown or invalid URI', async () => {
    const wire = recordWireErrors(client);
    await assert.rejects(client.subscribeResource({ uri: 'library://nope' }));
    assert.deepEqual([wire.at(-1)!.code, wire.at(-1)!.data.code], [-32002, 'RESOURCE_NOT_FOUND']);
    await assert.rejects(client.subscribeResource({ uri: 'no scheme' }), (err: any) => err.code === -32602 && err.data.code === 'INVALID_URI');
    assert.deepEqual(await client.unsubscribeResource({ uri: 'library://never-subscribed' }), {});
  });

  it('ends a session\'s subscriptions when it closes', async () => {
    const leaving = await memoryClient(gateway, 'leaving');
    await leaving.subscribeResource({ uri: 'library://readme' });
    const session = [...gateway.sessions.all()].find((s) => s.client === 'leaving')!;
    assert.deepEqual(gateway.subscriptions.of(session), ['library://readme']);
    await leaving.close();
    await waitFor(() => gateway.subscriptions.of(session).length === 0);
  });

  it('reports read progress when the client asks for it', async () => {
    const gatewayWithProgress = await startGateway(WITH_LIBRARY);
    const reader = gatewayWithProgress.resources.prepare('test', { uri: 'test://progress', name: 'progress' }, (_uri, _vars, call) => {
      call.progress({ progress: 1, total: 2 });
      call.progress({ progress: 2, total: 2 });
      return 'done';
    });
    gatewayWithProgress.resources.add([reader]);
    const progressClient = await memoryClient(gatewayWithProgress, 'progress');
    const updates: number[] = [];
    const result = await progressClient.request({ method: 'resources/read', params: { uri: 'test://progress' } }, { onprogress: (p) => updates.push(p.progress) });
    assert.deepEqual(updates, [1, 2]);
    assert.equal((result.contents[0] as { text: string }).text, 'done');
  });
});
