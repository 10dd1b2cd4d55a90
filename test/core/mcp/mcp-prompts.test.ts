import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gatewayMetrics } from '../../../core/http/metrics.js';
import { ANY_RESULT, memoryClient, startGateway, WITH_LIBRARY } from '../../helpers.js';

describe('prompts and completion over the in-memory pair (real SDK client)', async () => {
  const gateway = await startGateway(WITH_LIBRARY);
  const client = await memoryClient(gateway, 'prompt-test');

  it('lists prompts with the MCP arguments made from their schema', async () => {
    const { prompts } = await client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['broken_prompt', 'cover', 'greet', 'many_completions', 'summarize_book']);
    assert.deepEqual(prompts.find((p) => p.name === 'summarize_book'), {
      name: 'summarize_book',
      title: 'Summarize a book',
      description: 'Asks for a summary of one book, with the book embedded.',
      arguments: [
        { name: 'id', description: 'The book id.', required: true },
        { name: 'style', description: 'short or long.', required: false },
      ],
    });
    assert.equal(prompts.find((p) => p.name === 'cover')!.arguments, undefined);
  });

  it('gets a prompt: messages with text and an embedded resource', async () => {
    const result = await client.getPrompt({ name: 'summarize_book', arguments: { id: 'dune', style: 'long' } });
    assert.equal(result.description, 'Asks for a summary of one book, with the book embedded.');
    assert.deepEqual(result.messages, [
      { role: 'user', content: { type: 'text', text: 'Summarize this book (long).' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'library://books/dune', mimeType: 'text/plain', text: 'A desert planet.' } } },
    ]);
    gateway.audit?.flush();
    const row = gateway.db.prepare("SELECT kind, plugin, outcome, args_summary FROM core_audit WHERE tool = 'summarize_book' ORDER BY id DESC LIMIT 1").get();
    assert.deepEqual(row, { kind: 'prompt', plugin: 'library', outcome: 'ok', args_summary: '{"id":"dune","style":"long"}' });
  });

  it('turns a string into one user text message, and passes image content', async () => {
    const greet = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    assert.deepEqual(greet.messages, [{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
    const cover = await client.getPrompt({ name: 'cover' });
    assert.equal(cover.messages[0]!.role, 'assistant');
    assert.equal(cover.messages[0]!.content.type, 'image');
  });

  const failures: Array<[string, { name: string; arguments?: Record<string, string> }, number, string]> = [
    ['an unknown prompt', { name: 'no_such_prompt' }, -32602, 'UNKNOWN_PROMPT'],
    ['a missing required argument', { name: 'summarize_book', arguments: {} }, -32602, 'PROMPT_ARGUMENTS_INVALID'],
    ['a value outside the enum', { name: 'summarize_book', arguments: { id: 'dune', style: 'epic' } }, -32602, 'PROMPT_ARGUMENTS_INVALID'],
    ['an argument the schema does not list', { name: 'summarize_book', arguments: { id: 'dune', mood: 'sad' } }, -32602, 'PROMPT_ARGUMENTS_INVALID'],
    ['arguments to a prompt that takes none', { name: 'cover', arguments: { x: 'y' } }, -32602, 'PROMPT_ARGUMENTS_INVALID'],
    ['a declared plugin error', { name: 'summarize_book', arguments: { id: 'ulysses' } }, -32600, 'LIBRARY_REFUSED'],
    ['an unexpected throw', { name: 'broken_prompt' }, -32603, 'INTERNAL_ERROR'],
  ];
  for (const [label, params, code, stable] of failures) {
    it(`refuses ${label} with ${stable}`, async () => {
      await assert.rejects(client.getPrompt(params), (err: any) => {
        assert.equal(err.code, code);
        assert.equal(err.data.code, stable);
        assert.doesNotMatch(err.message, /secret|passwd/);
        return true;
      });
    });
  }

  it('lists each argument problem in details', async () => {
    await assert.rejects(client.getPrompt({ name: 'summarize_book', arguments: { id: 'Bad Id' } }), (err: any) => {
      assert.deepEqual(err.data.details, [{ path: '/id', message: 'must match pattern "^[a-z0-9-]+$"' }]);
      return true;
    });
  });

  it('refuses non-string argument values with INVALID_PARAMS and a sentence', async () => {
    await assert.rejects(client.request({ method: 'prompts/get', params: { name: 'greet', arguments: { name: 5 } } } as never, ANY_RESULT), (err: any) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /"arguments" must be an object whose values are strings/);
      return true;
    });
  });

  it('completes prompt arguments, with the other arguments as context', async () => {
    const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize_book' }, argument: { name: 'id', value: 'd' } });
    assert.deepEqual(completion, { values: ['dune', 'dracula'], total: 2, hasMore: false });
    const style = await client.complete({ ref: { type: 'ref/prompt', name: 'summarize_book' }, argument: { name: 'style', value: 'l' }, context: { arguments: { id: 'dune' } } });
    assert.deepEqual(style.completion.values, ['long']);
  });

  it('completes resource template variables', async () => {
    const { completion } = await client.complete({ ref: { type: 'ref/resource', uri: 'library://books/{id}' }, argument: { name: 'id', value: 'e' } });
    assert.deepEqual(completion.values, ['emma']);
  });

  it('caps completions at 100 values with total and hasMore', async () => {
    const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'many_completions' }, argument: { name: 'n', value: '' } });
    assert.equal(completion.values.length, 100);
    assert.equal(completion.total, 150);
    assert.equal(completion.hasMore, true);
  });

  it('answers an argument without completer with no values', async () => {
    const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } });
    assert.deepEqual(completion.values, []);
  });

  it('audits and counts every completion, as kind completion, through the one call pipeline', async () => {
    // Made before the calls, as `serve` makes it before any listener: it counts from then on.
    const metrics = gatewayMetrics(gateway);
    await client.complete({ ref: { type: 'ref/prompt', name: 'summarize_book' }, argument: { name: 'id', value: 'du' } });
    await client.complete({ ref: { type: 'ref/resource', uri: 'library://books/{id}' }, argument: { name: 'id', value: 'e' } });
    await assert.rejects(client.complete({ ref: { type: 'ref/prompt', name: 'ghost' }, argument: { name: 'a', value: '' } }));
    gateway.audit?.flush();
    const rows = gateway.db.prepare("SELECT tool, plugin, outcome, args_summary FROM core_audit WHERE kind = 'completion' ORDER BY id DESC LIMIT 3").all();
    assert.deepEqual(rows.reverse(), [
      { tool: 'summarize_book', plugin: 'library', outcome: 'ok', args_summary: '{"id":"du"}' },
      { tool: 'library://books/{id}', plugin: 'library', outcome: 'ok', args_summary: '{"id":"e"}' },
      { tool: 'ghost', plugin: null, outcome: 'UNKNOWN_PROMPT', args_summary: '{"a":""}' },
    ]);
    const text = await metrics.metrics();
    assert.match(text, /mcp_gateway_completions_total\{ref="summarize_book",outcome="ok"\} \d+/);
    assert.match(text, /mcp_gateway_completions_total\{ref="\(unknown\)",outcome="UNKNOWN_PROMPT"\} 1/);
    assert.match(text, /mcp_gateway_content_duration_seconds_count\{kind="completion"\} \d+/);
  });

  it('refuses completion for an unknown prompt or template, and malformed params', async () => {
    await assert.rejects(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }), (err: any) => err.data.code === 'UNKNOWN_PROMPT');
    await assert.rejects(client.complete({ ref: { type: 'ref/resource', uri: 'library://nope/{x}' }, argument: { name: 'x', value: '' } }), (err: any) => err.data.code === 'RESOURCE_NOT_FOUND');
    await assert.rejects(client.request({ method: 'completion/complete', params: { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } } } as never, ANY_RESULT), (err: any) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /"ref" must be/);
      return true;
    });
  });
});
