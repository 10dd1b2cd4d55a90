import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { spawnGateway, tempDir, testConfigObject, waitFor, writeConfig, type GatewayProcess } from '../helpers.js';

/** A third-party plugin whose one tool is named by a file beside it: its tools change without the config changing. */
function shiftingPlugin(parent: string, toolName: string): { registry: string; nameFile: string } {
  const dir = join(parent, 'shifting');
  mkdirSync(dir);
  const nameFile = join(dir, 'tool-name.txt');
  writeFileSync(nameFile, toolName);
  writeFileSync(
    join(dir, 'shifting.js'),
    `import { readFileSync } from 'node:fs';
const name = readFileSync(new URL('./tool-name.txt', import.meta.url), 'utf8').trim();
export default {
  name: 'shifting',
  version: '1.0.0',
  description: 'One tool, named by tool-name.txt.',
  setup(ctx) {
    ctx.tool(
      { name, description: 'Answers its name.', inputSchema: { type: 'object', additionalProperties: false, properties: {} },
        outputSchema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
        annotations: { readOnlyHint: true, openWorldHint: false } },
      () => ({ name }),
    );
  },
};
`,
  );
  writeFileSync(join(dir, 'shifting.yaml'), 'name: shifting\nmodule: ./shifting.js\n');
  return { registry: dir, nameFile };
}

interface RawSession {
  gateway: GatewayProcess;
  messages: Array<Record<string, any>>;
  send(message: unknown): void;
  /** The message answering request `id`. */
  answer(id: number): Promise<Record<string, any>>;
}

/** `mcp-gateway --stdio` with its cache in `cacheDir`, spoken to in raw JSON-RPC lines. */
function startRaw(config: string, cacheDir: string): RawSession {
  const gateway = spawnGateway(['--stdio', '--config', config], { env: { MCP_GATEWAY_CACHE_DIR: cacheDir } });
  const messages: Array<Record<string, any>> = [];
  let pending = '';
  gateway.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    for (const line of lines) messages.push(JSON.parse(line));
  });
  return {
    gateway,
    messages,
    send: (message) => gateway.child.stdin.write(typeof message === 'string' ? message : `${JSON.stringify(message)}\n`),
    answer: async (id) => {
      await waitFor(() => messages.some((m) => m.id === id), 20_000);
      return messages.find((m) => m.id === id)!;
    },
  };
}

const initialize = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const listTools = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** One whole session: initialize, list, one call, then stdin closed; resolves with what came back and the exit code. */
async function session(config: string, cacheDir: string, tool: string, args: Record<string, unknown> = {}) {
  const raw = startRaw(config, cacheDir);
  for (const message of [initialize(1), initialized, listTools(2), call(3, tool, args)]) raw.send(message);
  const [init, list, result] = [await raw.answer(1), await raw.answer(2), await raw.answer(3)];
  raw.gateway.child.stdin.end();
  const code = await raw.gateway.exited;
  return { init, list, result, code, messages: raw.messages, stderr: raw.gateway.stderrLines };
}

function cacheFiles(cacheDir: string): string[] {
  try {
    return readdirSync(cacheDir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
}

const toolNames = (list: Record<string, any>) => (list.result.tools as Array<{ name: string }>).map((t) => t.name).sort();
/** Core's own tools, sorted: they come before any tool of the test plugin. */
const GATEWAY_TOOLS = ['gateway_call_tool', 'gateway_find_tools', 'gateway_status'];

describe('--stdio answers its first requests from the last identical start', () => {
  it('writes the catalog after a start, and the next identical start answers the same from it', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const config = writeConfig(dir, testConfigObject(dir));

    const cold = await session(config, cacheDir, 'echo', { text: 'cold' });
    assert.equal(cold.code, 0);
    assert.equal(cacheFiles(cacheDir).length, 1, 'the first start wrote its catalog');
    const file = join(cacheDir, cacheFiles(cacheDir)[0]!);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);

    const warm = await session(config, cacheDir, 'echo', { text: 'warm' });
    assert.equal(warm.code, 0);
    assert.deepEqual(warm.init.result, cold.init.result, 'initialize answered as the booted gateway answers it');
    assert.deepEqual(warm.list.result, cold.list.result);
    assert.equal(warm.result.result.structuredContent.text, 'warm', 'the session took over: calls reach the plugins');
    assert.equal(warm.messages.filter((m) => m.id === 1).length, 1, 'initialize answered once');
    assert.ok(!warm.messages.some((m) => m.method === 'notifications/tools/list_changed'), 'an unchanged catalog is no news');
  });

  it('tells the client when the booted gateway lists other tools than the cache did, and caches the new list', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const { registry, nameFile } = shiftingPlugin(dir, 'shifting_before');
    const config = writeConfig(dir, testConfigObject(dir, { registries: [registry], plugins: { shifting: {} } }));
    await session(config, cacheDir, 'shifting_before');

    writeFileSync(nameFile, 'shifting_after');
    const raw = startRaw(config, cacheDir);
    for (const message of [initialize(1), initialized, listTools(2)]) raw.send(message);
    assert.deepEqual(toolNames(await raw.answer(2)), [...GATEWAY_TOOLS, 'shifting_before'], 'the cached list, before the boot');
    await waitFor(() => raw.messages.some((m) => m.method === 'notifications/tools/list_changed'), 20_000);
    raw.send(listTools(3));
    assert.deepEqual(toolNames(await raw.answer(3)), [...GATEWAY_TOOLS, 'shifting_after']);
    raw.send(call(4, 'shifting_after'));
    assert.equal((await raw.answer(4)).result.structuredContent.name, 'shifting_after');
    await waitFor(() => readFileSync(join(cacheDir, cacheFiles(cacheDir)[0]!), 'utf8').includes('shifting_after'));
    raw.gateway.child.stdin.end();
    assert.equal(await raw.gateway.exited, 0);
  });

  it('starts cold when the config file changed: its cached answers are not used', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const { registry, nameFile } = shiftingPlugin(dir, 'shifting_one');
    const object = testConfigObject(dir, { registries: [registry], plugins: { shifting: {} } });
    const config = writeConfig(dir, object);
    await session(config, cacheDir, 'shifting_one');
    writeFileSync(nameFile, 'shifting_two');
    writeConfig(dir, { ...object, logLevel: 'error' });

    const run = await session(config, cacheDir, 'shifting_two');
    assert.deepEqual(toolNames(run.list), [...GATEWAY_TOOLS, 'shifting_two'], 'the first list is the booted one');
    assert.ok(!run.messages.some((m) => m.method === 'notifications/tools/list_changed'));
    assert.equal(cacheFiles(cacheDir).length, 2, 'each config has its own entry');
  });

  it('leaves what it cannot answer to the session: a bad line, an initialize without clientInfo, a line over the cap', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const config = writeConfig(dir, testConfigObject(dir, { transports: { stdio: { maxMessageBytes: 2048 }, tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } } }));
    await session(config, cacheDir, 'echo', { text: 'cold' });

    const raw = startRaw(config, cacheDir);
    raw.send('this is not json\n');
    raw.send(`${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x'.repeat(4000) } } })}\n`);
    raw.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {} } });
    raw.send(initialize(2));
    raw.send(initialized);
    raw.send(listTools(3));
    raw.send(call(4, 'echo', { text: 'after all that' }));
    assert.ok((await raw.answer(1)).error, "the session's own answer to a malformed initialize, not the cached one");
    assert.ok((await raw.answer(2)).result.serverInfo);
    assert.ok(toolNames(await raw.answer(3)).includes('echo'));
    assert.equal((await raw.answer(4)).result.structuredContent.text, 'after all that');
    const errors = raw.messages.filter((m) => m.id === null).map((m) => m.error.code);
    assert.deepEqual(errors.sort(), [-32700, -32600].sort(), 'the parse error, and the line over the cap');
    raw.gateway.child.stdin.end();
    assert.equal(await raw.gateway.exited, 0);
  });

  it('ends cleanly when the client closes stdin right after the cached answers', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const config = writeConfig(dir, testConfigObject(dir));
    await session(config, cacheDir, 'echo', { text: 'cold' });

    const raw = startRaw(config, cacheDir);
    for (const message of [initialize(1), initialized, listTools(2)]) raw.send(message);
    await raw.answer(2);
    raw.gateway.child.stdin.end();
    assert.equal(await raw.gateway.exited, 0);
  });

  it('writes nothing with transports.stdio.catalogCache: false', async () => {
    const dir = tempDir();
    const cacheDir = join(dir, 'cache');
    const config = writeConfig(dir, testConfigObject(dir, { transports: { stdio: { catalogCache: false }, tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } } }));
    const run = await session(config, cacheDir, 'echo', { text: 'uncached' });
    assert.equal(run.code, 0);
    assert.deepEqual(cacheFiles(cacheDir), []);
  });
});
