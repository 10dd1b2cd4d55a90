import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resolveConfig } from '../../core/config/config.js';
import type { GatewayEvent } from '../../core/lib/events.js';
import { createGateway, type Gateway } from '../../core/gateway/gateway.js';
import { memoryClient, NOTES_REGISTRY, resultJson, tempDir } from '../helpers.js';

// The example plugin of docs/writing-a-plugin.md, booted the way its doc says to test a plugin.

async function bootNotes(notes: Record<string, unknown> = {}): Promise<Gateway> {
  const dir = tempDir('mcpgw-notes-');
  const config = resolveConfig(
    {
      dataDir: join(dir, 'data'),
      workspace: dir,
      logLevel: 'silent',
      registries: [NOTES_REGISTRY],
      plugins: { notes },
      transports: { tcp: { enabled: false }, unix: { enabled: false } },
    },
    { env: process.env, cwd: dir },
  );
  const gateway = await createGateway({ config });
  after(() => gateway.close());
  return gateway;
}

describe('docs example: the notes plugin', async () => {
  const gateway = await bootNotes();
  const client = await memoryClient(gateway, 'notes-test');
  const events: GatewayEvent[] = [];
  gateway.events.subscribe('notes.*', (event) => events.push(event));

  it('lists its three tools with schemas and annotations', async () => {
    const { tools } = await client.listTools();
    const notes = tools.filter((t) => t.name.startsWith('note_'));
    assert.deepEqual(notes.map((t) => t.name).sort(), ['note_add', 'note_delete', 'note_list']);
    for (const tool of notes) {
      // The lean listing leaves out hints equal to the defaults (readOnlyHint: false among them).
      assert.equal(typeof gateway.catalog.get(tool.name)!.definition.annotations.readOnlyHint, 'boolean', tool.name);
      assert.ok(tool.outputSchema, tool.name);
    }
  });

  it('adds notes, applying the tags default, and publishes notes.added', async () => {
    const first = await client.callTool({ name: 'note_add', arguments: { text: 'buy milk' } });
    assert.equal(first.isError, undefined);
    const note = resultJson(first);
    assert.deepEqual(first.structuredContent, note);
    assert.equal(note.text, 'buy milk');
    assert.deepEqual(note.tags, []);
    assert.equal(note.author, 'notes-test');

    const second = resultJson(await client.callTool({ name: 'note_add', arguments: { text: 'fix #12', tags: ['work', 'bug'] } }));
    assert.deepEqual(second.tags, ['bug', 'work']);
    assert.ok(second.id > note.id);
    assert.deepEqual(
      events.map((e) => [e.channel, e.source, e.data]),
      [
        ['notes.added', 'notes', { id: note.id, tags: [] }],
        ['notes.added', 'notes', { id: second.id, tags: ['work', 'bug'] }],
      ],
    );
  });

  it('lists notes newest first, by tag and with a limit', async () => {
    const all = resultJson(await client.callTool({ name: 'note_list', arguments: {} }));
    assert.deepEqual(all.notes.map((n: { text: string }) => n.text), ['fix #12', 'buy milk']);
    const tagged = resultJson(await client.callTool({ name: 'note_list', arguments: { tag: 'bug' } }));
    assert.deepEqual(tagged.notes.map((n: { text: string }) => n.text), ['fix #12']);
    const one = resultJson(await client.callTool({ name: 'note_list', arguments: { limit: 1 } }));
    assert.equal(one.notes.length, 1);
  });

  it('deletes a note, then answers NOTE_NOT_FOUND for it', async () => {
    const { notes } = resultJson(await client.callTool({ name: 'note_list', arguments: { tag: 'work' } }));
    const id = notes[0].id;
    assert.deepEqual(resultJson(await client.callTool({ name: 'note_delete', arguments: { id } })), { deleted: id });

    const again = await client.callTool({ name: 'note_delete', arguments: { id } });
    assert.equal(again.isError, true);
    const body = resultJson(again);
    assert.equal(body.code, 'NOTE_NOT_FOUND');
    assert.deepEqual(body.details, { id });
    assert.match(body.message, /note_list/);
    // Its tags went with it (ON DELETE CASCADE: foreign keys are on).
    const tagged = resultJson(await client.callTool({ name: 'note_list', arguments: { tag: 'work' } }));
    assert.deepEqual(tagged.notes, []);
  });

  const invalid: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['note_add', 'missing text', {}, /missing required key "text"/],
    ['note_add', 'a tag with upper case', { text: 'x', tags: ['Work'] }, /\/tags\/0 must match pattern/],
    ['note_add', 'an unknown key', { text: 'x', colour: 'red' }, /unknown key "colour"/],
    ['note_list', 'a limit over 100', { limit: 500 }, /\/limit must be <= 100/],
    ['note_delete', 'an id as a string (no coercion)', { id: '1' }, /\/id must be integer/],
  ];
  for (const [tool, label, args, message] of invalid) {
    it(`refuses ${tool} with ${label}: INVALID_ARGUMENTS`, async () => {
      const result = await client.callTool({ name: tool, arguments: args });
      assert.equal(result.isError, true);
      const body = resultJson(result);
      assert.equal(body.code, 'INVALID_ARGUMENTS');
      assert.match(body.message, message);
      assert.ok(Array.isArray(body.details) && body.details.length > 0);
    });
  }

  it('records every call in the audit table', () => {
    gateway.audit!.flush();
    const rows = gateway.db
      .prepare("SELECT tool, outcome, transport, caller FROM core_audit WHERE tool LIKE 'note_%' ORDER BY id")
      .all() as Array<{ tool: string; outcome: string; transport: string; caller: string }>;
    assert.ok(rows.some((r) => r.tool === 'note_delete' && r.outcome === 'NOTE_NOT_FOUND'));
    assert.ok(rows.some((r) => r.outcome === 'INVALID_ARGUMENTS'));
    assert.ok(rows.every((r) => r.transport === 'memory' && r.caller === 'notes-test'));
  });
});

describe('docs example: notes plugin configuration', () => {
  it('keeps only maxNotes notes, deleting the oldest', async () => {
    const gateway = await bootNotes({ config: { maxNotes: 2 } });
    const client = await memoryClient(gateway);
    for (const text of ['one', 'two', 'three']) await client.callTool({ name: 'note_add', arguments: { text } });
    const { notes } = resultJson(await client.callTool({ name: 'note_list', arguments: {} }));
    assert.deepEqual(notes.map((n: { text: string }) => n.text), ['three', 'two']);
  });

  it('refuses an unknown config key, naming it and the valid keys', async () => {
    await assert.rejects(bootNotes({ config: { maxNote: 2 } }), (err: { code: string; message: string }) => {
      assert.equal(err.code, 'CONFIG_INVALID');
      assert.match(err.message, /plugins\.notes\.config: unknown key "maxNote"\. Valid keys: maxNotes\./);
      return true;
    });
  });
});
