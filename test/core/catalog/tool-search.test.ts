import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { listenSocket } from '../../../core/mcp/socket-server.js';
import type { Gateway } from '../../../core/gateway/gateway.js';
import type { CallContext, ToolDefinition } from '../../../core/contract/plugin-types.js';
import { httpRequest, memoryClient, socketClient, startGateway, tempDir, toolCalls } from '../../helpers.js';

const FIND = 'gateway_find_tools';
const CALL = 'gateway_call_tool';
const PLUGINS = { echo: {}, files: {}, process: {}, brain: {}, knowledge: {}, collab: {} };

/** Adds a tool of a plugin "test" for the rest of the file's describe, as a plugin's run-time tool would be. */
function addTool(gateway: Gateway, definition: Partial<ToolDefinition> & { name: string }, handler: (args: any, call: CallContext) => unknown): void {
  const tool = gateway.catalog.prepare(
    'test',
    { description: 'A tool of the test.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, ...definition },
    handler,
  );
  gateway.catalog.add([tool]);
  after(() => gateway.catalog.remove(tool));
}

/** The result of `name` called directly, and through gateway_call_tool. */
async function bothWays(client: Client, name: string, args: Record<string, unknown>) {
  const direct = await client.callTool({ name, arguments: args });
  const nested = await client.callTool({ name: CALL, arguments: { name, arguments: args } });
  return { direct, nested };
}

/** The JSON-RPC error a call gets (UNKNOWN_TOOL is one), as the SDK client raises it. */
async function protocolError(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    return { code: (err as { code: number }).code, message: (err as Error).message };
  }
  throw new Error('the call succeeded');
}

describe('gateway_find_tools and gateway_call_tool', async () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'notes.txt'), 'one\ntwo\nthree\n');
  const filesOnly = createApiKey();
  const gateway = await startGateway(
    {
      auth: 'key',
      apiKeys: [{ name: 'files-only', hash: filesOnly.hash, scopes: [FIND, CALL, 'file_*', 'dir_*', 'echo'] }],
      plugins: PLUGINS,
      transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
    },
    dir,
  );
  const owner = await memoryClient(gateway, 'owner-agent');
  const { call, fail } = toolCalls(owner);
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => tcp.close());
  const scoped = (await socketClient(tcp.address, 'files-agent', filesOnly.key)).client;
  after(() => scoped.close());
  const http = await listenHttp(gateway);
  after(() => http.close());
  const rest = (key: string, name: string, body: unknown) =>
    httpRequest(http.address.port, { method: 'POST', url: `/tools/${name}`, headers: { authorization: `Bearer ${key}` }, payload: body });

  describe('gateway_find_tools', () => {
    const plainRequests: Array<[query: string, tool: string, within: number]> = [
      ['edit a file', 'file_edit', 3],
      ['remember something', 'brain_remember', 1],
      ['forget a memory', 'brain_forget', 1],
      ['stop a process', 'process_stop', 3],
      ['send a message to another agent', 'collab_send_message', 1],
      ['lock a file', 'collab_lock_file', 3],
    ];
    for (const [query, tool, within] of plainRequests) {
      it(`ranks ${tool} within the first ${within} for "${query}"`, async () => {
        const found = await call(FIND, { query });
        const names = found.tools.map((t: { name: string }) => t.name);
        assert.ok(names.slice(0, within).includes(tool), `${query}: ${names.join(', ')}`);
      });
    }

    it('answers each hit as tools/list lists it, with its plugin and a score, best first', async () => {
      const listed = new Map((await owner.listTools()).tools.map((t) => [t.name, t]));
      const found = await call(FIND, { query: 'read the lines of a file', limit: 10 });
      assert.equal(found.tools.length, 10);
      assert.ok(found.total >= 10);
      for (const { plugin, score, ...listing } of found.tools) {
        assert.deepEqual(listing, JSON.parse(JSON.stringify(listed.get(listing.name))));
        assert.equal(plugin, gateway.catalog.get(listing.name)!.plugin);
        assert.ok(score > 0 && score <= 1, `${listing.name}: ${score}`);
      }
      const scores = found.tools.map((t: { score: number }) => t.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    });

    it('gives 5 hits unless asked for another number, up to 20', async () => {
      assert.equal((await call(FIND, { query: 'file' })).tools.length, 5);
      const one = await call(FIND, { query: 'file', limit: 1 });
      assert.equal(one.tools.length, 1);
      assert.ok(one.total > 1);
      assert.equal((await call(FIND, { query: 'file', limit: 20 })).tools.length, 20);
      assert.equal((await fail(FIND, { query: 'file', limit: 21 })).code, 'INVALID_ARGUMENTS');
    });

    it('keeps to one plugin when asked, and finds nothing in a plugin that does not exist', async () => {
      const found = await call(FIND, { query: 'list', plugin: 'collab', limit: 20 });
      assert.ok(found.tools.length > 1);
      assert.ok(found.tools.every((t: { plugin: string }) => t.plugin === 'collab'));
      assert.deepEqual(await call(FIND, { query: 'list', plugin: 'no-such-plugin' }), { tools: [], total: 0 });
    });

    it('never offers itself or gateway_call_tool, whose own words the query holds', async () => {
      const found = await call(FIND, { query: 'find tools, call a tool by name with its arguments', limit: 20 });
      assert.ok(found.total > 0);
      const names = found.tools.map((t: { name: string }) => t.name);
      assert.ok(!names.includes(FIND) && !names.includes(CALL), names.join(', '));
    });

    it('leaves out tools that matched only words most tools hold ("a")', async () => {
      const found = await call(FIND, { query: 'forget a memory', limit: 20 });
      assert.ok(found.tools.every((t: object) => /forget|memory/i.test(JSON.stringify(t))));
      assert.ok(found.total < 10, `total ${found.total}`);
    });

    const badQueries: Array<[label: string, args: Record<string, unknown>, message: RegExp]> = [
      ['an empty query', { query: '' }, /query/],
      ['a query of spaces', { query: '   \t ' }, /the query has no words/],
      ['a query of punctuation', { query: '?! … -- "*"' }, /the query has no words/],
      ['a query over 500 characters', { query: 'file '.repeat(101) }, /query/],
      ['no query', {}, /query/],
      ['a plugin that is not a string', { query: 'file', plugin: 7 }, /plugin/],
    ];
    for (const [label, args, message] of badQueries) {
      it(`answers INVALID_ARGUMENTS for ${label}, as any tool does`, async () => {
        const error = await fail(FIND, args);
        assert.equal(error.code, 'INVALID_ARGUMENTS');
        assert.match(error.message, message);
        const answer = await rest(gateway.ownerKey!.key, FIND, args);
        assert.equal(answer.statusCode, 400);
        assert.equal(answer.json().error.code, 'INVALID_ARGUMENTS');
      });
    }

    it('takes a query of 500 characters in a hundred words (the first 64 count)', async () => {
      const words = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
      const query = `${words} edit file`.slice(0, 500);
      const found = await call(FIND, { query });
      assert.equal(found.total, 0);
    });

    it('finds a tool by its arguments, and follows the catalog as tools come, change and go', async () => {
      addTool(gateway, { name: 'test_pour', inputSchema: { type: 'object', properties: { teaspoonCount: { type: 'integer', description: 'How much darjeeling.' } } } }, () => ({}));
      const byArgument = await call(FIND, { query: 'teaspoon count' });
      assert.deepEqual(byArgument.tools.map((t: { name: string }) => t.name), ['test_pour']);
      assert.equal((await call(FIND, { query: 'darjeeling' })).tools[0]?.name, 'test_pour');

      const first = gateway.catalog.get('test_pour')!;
      gateway.catalog.remove(first);
      assert.deepEqual(await call(FIND, { query: 'darjeeling' }), { tools: [], total: 0 });
      addTool(gateway, { name: 'test_pour', description: 'Pours oolong instead.' }, () => ({}));
      assert.equal((await call(FIND, { query: 'oolong' })).tools[0]?.name, 'test_pour');
      assert.deepEqual(await call(FIND, { query: 'darjeeling' }), { tools: [], total: 0 });
    });

    it('answers concurrent queries right after a change, from one update of the index', async () => {
      addTool(gateway, { name: 'test_brew', description: 'Brews a pot of genmaicha.' }, () => ({}));
      const answers = await Promise.all(Array.from({ length: 8 }, () => call(FIND, { query: 'genmaicha' })));
      for (const answer of answers) assert.deepEqual(answer.tools.map((t: { name: string }) => t.name), ['test_brew']);
    });

    it('offers a key only the tools its scopes let it call, over TCP and REST', async () => {
      const { tools, total } = (await scoped.callTool({ name: FIND, arguments: { query: 'remember a fact, or read a file', limit: 20 } })).structuredContent as any;
      assert.ok(tools.length > 0);
      assert.ok(total >= tools.length);
      for (const { name } of tools) assert.match(name, /^(file_|dir_|echo$)/);
      const byRest = (await rest(filesOnly.key, FIND, { query: 'gateway status' })).json();
      assert.ok(byRest.data.tools.every((t: { name: string }) => t.name !== 'gateway_status'));
      assert.equal((await call(FIND, { query: 'gateway status' })).tools[0].name, 'gateway_status');
    });
  });

  describe('gateway_call_tool', () => {
    it('gives what a direct call gives: content and structuredContent, the caller included', async () => {
      for (const [client, name, args] of [
        [owner, 'file_read', { path: 'notes.txt' }],
        [owner, 'echo', { text: 'hi', times: 2 }],
        [scoped, 'echo', { text: 'over tcp' }],
        [scoped, 'file_read', { path: 'notes.txt', head: 2 }],
      ] as const) {
        const { direct, nested } = await bothWays(client, name, args);
        assert.notEqual(direct.isError, true, JSON.stringify(direct.content));
        assert.deepEqual(nested, direct, name);
      }
    });

    it('gives a direct call\'s error for bad arguments, a plugin\'s code and an unexpected failure', async () => {
      for (const [name, args] of [
        ['file_read', { path: 5 }],
        ['echo', { text: 'x', unknown: true }],
        ['echo_fail', { kind: 'declared' }],
        ['echo_fail', { kind: 'unexpected' }],
        ['echo_fail', { kind: 'bad-output' }],
      ] as const) {
        const { direct, nested } = await bothWays(owner, name, args);
        assert.equal(direct.isError, true);
        assert.deepEqual(nested, direct, `${name} ${JSON.stringify(args)}`);
      }
      assert.equal((await fail(CALL, { name: 'echo_fail', arguments: { kind: 'declared' } })).code, 'ECHO_REFUSED');
    });

    it('refuses what a direct call refuses, and reveals no more: FORBIDDEN out of a key\'s scopes, UNKNOWN_TOOL for no tool', async () => {
      for (const name of ['brain_remember', 'gateway_status']) {
        const { direct, nested } = await bothWays(scoped, name, { content: 'x', type: 'fact' });
        assert.deepEqual(nested, direct);
        assert.equal(JSON.parse((nested.content as Array<{ text: string }>)[0]!.text).code, 'FORBIDDEN');
      }
      const direct = await protocolError(scoped.callTool({ name: 'no_such_tool', arguments: {} }));
      const nested = await protocolError(scoped.callTool({ name: CALL, arguments: { name: 'no_such_tool' } }));
      assert.deepEqual(nested, direct);
      assert.equal(direct.code, -32602);
      assert.match(direct.message, /Unknown tool "no_such_tool"/);
    });

    it('refuses to call itself with TOOL_CALL_RECURSIVE, on MCP and REST; gateway_find_tools it may call', async () => {
      const error = await fail(CALL, { name: CALL, arguments: { name: 'echo', arguments: { text: 'x' } } });
      assert.equal(error.code, 'TOOL_CALL_RECURSIVE');
      assert.match(error.message, /name the tool to run/);
      const answer = await rest(gateway.ownerKey!.key, CALL, { name: CALL });
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.json().error.code, 'TOOL_CALL_RECURSIVE');
      const found = await call(CALL, { name: FIND, arguments: { query: 'edit a file' } });
      assert.ok(found.tools.some((t: { name: string }) => t.name === 'file_edit'));
    });

    it('answers over REST as POST /tools/<name> does, with the key\'s scopes', async () => {
      for (const [key, name, args] of [
        [filesOnly.key, 'echo', { text: 'rest' }],
        [filesOnly.key, 'file_read', { path: 'notes.txt' }],
        [filesOnly.key, 'brain_remember', { content: 'x', type: 'fact' }],
        [filesOnly.key, 'file_read', { path: 'no-such-file.txt' }],
        [gateway.ownerKey!.key, 'echo_image', {}],
      ] as const) {
        const direct = await rest(key, name, args);
        const nested = await rest(key, CALL, { name, arguments: args });
        assert.equal(nested.statusCode, direct.statusCode, name);
        assert.deepEqual(nested.json(), direct.json(), name);
      }
    });

    it('audits the nested call as a direct one, beside its own row', async () => {
      await scoped.callTool({ name: CALL, arguments: { name: 'echo', arguments: { text: 'audited' } } });
      await scoped.callTool({ name: CALL, arguments: { name: 'brain_remember', arguments: { content: 'x', type: 'fact' } } });
      gateway.audit!.flush();
      const rows = gateway.db.prepare("SELECT tool, plugin, transport, session, caller, outcome, args_summary FROM core_audit WHERE transport = 'tcp' ORDER BY id DESC LIMIT 4").all() as any[];
      const [forbiddenOuter, forbiddenInner, okOuter, okInner] = rows;
      assert.deepEqual([okInner.tool, okInner.plugin, okInner.outcome, okInner.args_summary], ['echo', 'echo', 'ok', '{"text":"audited","times":1,"record":false}']);
      assert.deepEqual([okOuter.tool, okOuter.plugin, okOuter.outcome], [CALL, 'gateway', 'ok']);
      assert.deepEqual([forbiddenInner.tool, forbiddenInner.outcome, forbiddenOuter.tool, forbiddenOuter.outcome], ['brain_remember', 'FORBIDDEN', CALL, 'FORBIDDEN']);
      for (const row of rows) {
        assert.equal(row.caller, 'files-only');
        assert.equal(row.session, okOuter.session);
      }
    });

    it('sends the called tool\'s progress on the caller\'s own request', async () => {
      const progressOf = async (name: string, args: Record<string, unknown>) => {
        const seen: unknown[] = [];
        await owner.callTool({ name, arguments: args }, { onprogress: (p) => seen.push(p) });
        return seen;
      };
      const args = { ms: 0, steps: 3 };
      const direct = await progressOf('echo_sleep', args);
      assert.equal(direct.length, 3);
      assert.deepEqual(await progressOf(CALL, { name: 'echo_sleep', arguments: args }), direct);
    });

    it('cancels the called tool when the client cancels the call', async () => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      let cancelled!: (reason: unknown) => void;
      const stopped = new Promise<{ code: string }>((resolve) => (cancelled = resolve as (reason: unknown) => void));
      addTool(gateway, { name: 'test_wait' }, (_args, callContext) => {
        started();
        return new Promise((_, reject) =>
          callContext.signal.addEventListener('abort', () => {
            cancelled(callContext.signal.reason);
            reject(callContext.signal.reason);
          }),
        );
      });
      const controller = new AbortController();
      const answer = owner.callTool({ name: CALL, arguments: { name: 'test_wait' } }, { signal: controller.signal });
      answer.catch(() => {});
      await running;
      controller.abort();
      assert.equal((await stopped).code, 'CANCELLED');
      await assert.rejects(answer);
      await gateway.calls.drain();
      gateway.audit!.flush();
      const outcomes = gateway.db.prepare("SELECT tool, outcome FROM core_audit WHERE tool IN ('test_wait', ?) ORDER BY id DESC LIMIT 2").all(CALL);
      assert.deepEqual(new Set(outcomes.map((r: any) => `${r.tool} ${r.outcome}`)), new Set(['test_wait CANCELLED', `${CALL} CANCELLED`]));
    });

    it('leaves the time limit to the called tool, whose TOOL_TIMEOUT names it', async () => {
      addTool(gateway, { name: 'test_stall', timeoutMs: 1 }, () => new Promise(() => {}));
      const error = await fail(CALL, { name: 'test_stall' });
      assert.equal(error.code, 'TOOL_TIMEOUT');
      assert.match(error.message, /^test_stall did not finish within 1 ms/);
      assert.ok(gateway.catalog.get(CALL)!.timeoutMs > gateway.config.tools.timeoutMs);
    });

    it('sends structuredContent, an object, for a tool without an outputSchema, and the direct call\'s content', async () => {
      addTool(gateway, { name: 'test_plain' }, () => 'just text');
      for (const [name, args, structured] of [
        ['echo_sleep', { ms: 0 }, { slept: 0, aborted: false }],
        ['test_plain', {}, { result: 'just text' }],
      ] as const) {
        const { direct, nested } = await bothWays(owner, name, args);
        assert.equal(direct.structuredContent, undefined);
        assert.deepEqual(nested.content, direct.content);
        assert.deepEqual(nested.structuredContent, structured);
      }
      const { direct, nested } = await bothWays(owner, 'echo_image', {});
      assert.deepEqual(nested.content, direct.content);
      assert.deepEqual(nested.structuredContent, { content: direct.content });
    });
  });
});

describe('tool search in profiles: by what the caller may call, not by what it lists', async () => {
  const locked = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    apiKeys: [{ name: 'locked', hash: locked.hash, scopes: ['*'], profile: 'locked' }],
    plugins: PLUGINS,
    profiles: { coding: { plugins: ['files'], others: 'search' }, locked: { plugins: ['files'] } },
    defaultProfile: 'coding',
  });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => tcp.close());
  const connect = async (key: string, name: string) => {
    const { client } = await socketClient(tcp.address, name, key);
    after(() => client.close());
    return client;
  };
  const coding = await connect(gateway.ownerKey!.key, 'default-profile');
  const boxed = await connect(locked.key, 'locked-profile');

  it('finds and calls a tool the profile does not list but lets the caller call', async () => {
    const listed = (await coding.listTools()).tools.map((t) => t.name);
    assert.ok(!listed.includes('brain_remember') && listed.includes(FIND) && listed.includes(CALL));
    const found = (await coding.callTool({ name: FIND, arguments: { query: 'remember something' } })).structuredContent as any;
    assert.equal(found.tools[0].name, 'brain_remember');
    const remembered = await coding.callTool({ name: CALL, arguments: { name: 'brain_remember', arguments: { content: 'Profiles narrow the list.', type: 'fact' } } });
    assert.notEqual(remembered.isError, true, JSON.stringify(remembered.content));
  });

  it('neither finds nor calls a tool outside a profile that refuses the others', async () => {
    const found = (await boxed.callTool({ name: FIND, arguments: { query: 'remember something, or read a file', limit: 20 } })).structuredContent as any;
    assert.ok(found.tools.length > 0);
    for (const { plugin } of found.tools) assert.equal(plugin, 'files');
    const { direct, nested } = await bothWays(boxed, 'brain_remember', { content: 'x', type: 'fact' });
    assert.deepEqual(nested, direct);
    assert.equal(JSON.parse((nested.content as Array<{ text: string }>)[0]!.text).code, 'NOT_IN_PROFILE');
  });
});

describe('tools.search: false', async () => {
  const gateway = await startGateway({ tools: { search: false } });

  it('leaves both tools out of the catalog', async () => {
    const { tools } = await (await memoryClient(gateway)).listTools();
    assert.ok(tools.some((t) => t.name === 'gateway_status'));
    assert.ok(!tools.some((t) => t.name === FIND || t.name === CALL));
  });
});
