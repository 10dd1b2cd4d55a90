import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../core/plugins/registry.js';
import { createSchemaCompiler } from '../../core/lib/schema.js';
import type { RegisteredTool } from '../../core/catalog/tool-catalog.js';
import { startEmbeddingsServer } from '../fixtures/embeddings-server/server.js';
import { startPageServer, type PageServer } from '../fixtures/webview-pages/server.js';
import { memoryClient, startGateway, tempDir, toolCalls } from '../helpers.js';
import { TINY_PNG } from './files/files-helpers.js';
import { noChromium, refOf, startOutsideBrowser } from './webview/webview-helpers.js';

/**
 * Every tool of every shipped plugin and of core, called with each of its own input examples
 * through the real SDK client (which checks structuredContent against the outputSchema
 * itself) in a temporary workspace; each result is also checked here with a strict Ajv2020,
 * as core compiles schemas. A handler whose result drifts from its outputSchema fails here.
 *
 * The examples of tools that change things name objects that cannot exist (docs/rest.md,
 * "The examples are safe to send"): they are checked for that here, and called with live
 * objects put in their place, so that their results are checked too.
 * test/e2e/explorer-examples.test.ts sends them as they are, to a gateway full of objects.
 */

/** Results branches the examples do not reach, so that their shapes are checked too. */
const MORE_CASES: Record<string, Array<Record<string, unknown>>> = {
  file_read: [{ path: 'README.md' }],
  file_read_media: [{ path: 'bin/module.wasm' }],
  file_info: [{ path: 'link-to-readme' }, { path: 'src' }],
  file_search: [{ query: 'todo', case_sensitive: false }],
  file_multi_edit: [{ path: 'scratch/hello.txt', edits: [{ old_string: 'Hello', new_string: 'Hi' }] }],
  file_write: [{ path: 'scratch/hello.txt', content: 'overwritten\n' }],
  dir_create: [{ path: 'scratch' }],
  file_delete: [{ path: 'scratch/empty-folder' }],
  process_output: [{ id: 'proc-1', stream: 'stderr' }, { id: 'proc-1', offset: { stdout: 0 } }],
  process_list: [{}],
  knowledge_verify: [{ changed: true }],
  rag_ingest: [{ path: 'src', collection: 'code', include: ['**/*.ts'] }],
  rag_delete: [{ collection: 'code' }],
  ide_dashboard_update: [{ state: { explorerNote: 'set from the explorer' } }],
};

/** What the examples may run: harmless commands only. */
const HARMLESS_COMMANDS = new Set(['node', 'echo']);

/** The names the examples of changing tools give where they must name something: none can exist. */
const NO_SUCH = {
  /** Process ids count from proc-1. */
  process: 'proc-0',
  /** Task ids count up from 1; this is the largest the schema takes. */
  task: Number.MAX_SAFE_INTEGER,
  /** Refused in the sandbox (OUTSIDE_WORKSPACE), so no file there can be named through a tool. */
  path: '../outside-the-workspace.txt',
  /** A reserved name: no agent or worker can register it (COLLAB_AGENT_NAME_RESERVED). */
  agent: 'system',
} as const;

/** The workspace the examples expect, recreated before every call so that order does not matter. */
function seed(dir: string): void {
  rmSync(join(dir, 'scratch'), { recursive: true, force: true });
  mkdirSync(join(dir, 'scratch', 'empty-folder'), { recursive: true });
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'images'), { recursive: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# Demo\n\nA workspace for the examples.\n');
  writeFileSync(join(dir, 'package.json'), '{"name": "demo"}\n');
  writeFileSync(join(dir, 'src', 'app.ts'), 'const a = 1;\n// TODO: say more\nexport { a };\n');
  writeFileSync(join(dir, 'src', 'lib', 'util.ts'), 'export const b = 2; // TODO\n');
  writeFileSync(join(dir, 'images', 'logo.png'), TINY_PNG);
  writeFileSync(join(dir, 'bin', 'module.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  writeFileSync(join(dir, 'scratch', 'hello.txt'), 'Hello from the explorer.\n');
  rmSync(join(dir, 'link-to-readme'), { force: true });
  symlinkSync('README.md', join(dir, 'link-to-readme'));
}

describe('every tool, called with its own examples', async () => {
  const dir = realpathSync(tempDir());
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR]);
  const plugins = Object.fromEntries([...registry.keys()].map((name) => [name, {}]));
  // embeddings_embed answers EMBEDDINGS_DISABLED without a provider: the local test server is one.
  const embeddingsServer = await startEmbeddingsServer({ dimensions: 8 });
  after(() => embeddingsServer.close());
  const webview = await webviewWorldOf();
  const embeddings = { config: { provider: 'ollama', url: embeddingsServer.url, model: 'test-model', dimensions: 8 } };
  // The worker kind collab_spawn_worker's example names: a harmless child that reads its stdin.
  const collab = { config: { workers: { kinds: { tester: { command: ['node', '-e', 'process.stdin.resume()'] } } } } };
  // The database lives outside the workspace, so that walking the workspace sees only the seed.
  // webview_connect is off by default; its example needs it on.
  const webviewPlugin = { config: { connect: { enabled: true } } };
  const gateway = await startGateway({ plugins: { ...plugins, embeddings, collab, webview: webviewPlugin, echo: { enabled: false } }, workspace: dir, dataDir: join(tempDir(), 'data') });
  const client = await memoryClient(gateway);
  // The client learns each outputSchema from tools/list and checks structuredContent against it.
  const listed = await client.listTools();
  const ajv = createSchemaCompiler();

  it('covers every tool of core and the shipped plugins', () => {
    assert.deepEqual(new Set(listed.tools.map((t) => t.name)), new Set(gateway.catalog.list().map((t) => t.listing.name)));
    assert.ok(gateway.catalog.size >= 27);
  });

  it('compiles the schemas of every tool in strict mode (the catalog compiles them on first use)', () => {
    for (const tool of gateway.catalog.list()) assert.doesNotThrow(() => tool.validators.get(), tool.listing.name);
  });

  for (const tool of gateway.catalog.list()) {
    const name = tool.listing.name;
    // The webview tools need a browser: CI installs one (.ci/run); elsewhere they say they skip.
    const skip = tool.plugin === 'webview' ? noChromium : false;
    it(`${name}: its examples and results match its schemas`, { skip }, async () => {
      const { inputSchema, outputSchema } = tool.definition;
      assert.ok(outputSchema, `${name} has no outputSchema`);
      const examples = inputSchema.examples as Array<Record<string, unknown>> | undefined;
      assert.ok(Array.isArray(examples) && examples.length > 0, `${name} has no examples`);
      for (const args of examples) assertInert(tool, args);
      // This Ajv applies no defaults: the catalog's would write them into the examples themselves.
      const validateInput = ajv.compile(inputSchema);
      const validate = ajv.compile(outputSchema);
      for (const args of [...examples, ...(MORE_CASES[name] ?? [])]) {
        assert.ok(validateInput(args), `${name} example ${JSON.stringify(args)}: ${JSON.stringify(validateInput.errors)}`);
        seed(dir);
        const given = await withLiveIds(client, tool, args, webview);
        const result = await client.callTool({ name, arguments: given });
        const shown = JSON.stringify(result.content).slice(0, 400);
        assert.notEqual(result.isError, true, `${name} ${JSON.stringify(given)} failed: ${shown}`);
        assert.ok(result.structuredContent, `${name} sent no structuredContent`);
        assert.ok(validate(result.structuredContent), `${name} ${JSON.stringify(given)}: ${JSON.stringify(validate.errors)}`);
        const [first] = result.content as Array<{ type: string; text?: string }>;
        if (first?.type === 'text') assert.deepEqual(JSON.parse(first.text!), result.structuredContent);
      }
    });
  }
});

/**
 * The example with its objects made real: a path outside the workspace becomes the seeded
 * scratch/hello.txt (README.md for the collab and RAG tools), a running process for process
 * tools, knowledge nodes for the knowledge tools (`id` and `ids`, or two distinct ones for
 * `from` and `to`), a memory for brain_forget, the collab and webview worlds.
 */
async function withLiveIds(client: Client, tool: RegisteredTool, given: Record<string, unknown>, webview: WebviewWorld): Promise<Record<string, unknown>> {
  const inWorkspace = tool.plugin === 'files' ? 'scratch/hello.txt' : 'README.md';
  const args = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, value === NO_SUCH.path ? inWorkspace : value]));
  if (tool.plugin === 'knowledge') {
    const keys = ['id', 'from', 'to', 'ids'].filter((key) => key in args);
    if (keys.length === 0) return args;
    const nodes = await liveNodes(client, 2);
    return { ...args, ...Object.fromEntries(keys.map((key) => [key, key === 'ids' ? [nodes[0]] : key === 'to' ? nodes[1] : nodes[0]])) };
  }
  if (tool.plugin === 'brain') return typeof args.id === 'string' ? { ...args, id: await liveMemory(client) } : args;
  if (tool.plugin === 'collab') return collabWorld(client, tool.listing.name, args);
  if (tool.plugin === 'webview') return webviewWorld(webview, client, tool.listing.name, args);
  return typeof args.id === 'string' ? { ...args, id: await liveProcess(client) } : args;
}

/** Tools whose example task must be the caller's, in progress. */
const TASK_IN_HAND = new Set(['collab_report_progress', 'collab_handoff']);

/** Who stands for the agent no example may name, by tool: the session's own agent, the helper, the worker. */
function liveAgentFor(tool: string, key: string): string {
  if (tool === 'collab_join') return 'explorer';
  if (key === 'name' && tool.includes('worker')) return 'tester-1';
  return 'explorer-helper';
}

/**
 * The collab world: the session acts as `explorer` (collab_join's example, with the reserved
 * name replaced), an `explorer-helper` exists, collab_spawn_worker's example made `tester-1`,
 * and a task id names a fresh task in the state the tool needs.
 */
async function collabWorld(client: Client, name: string, given: Record<string, unknown>): Promise<Record<string, unknown>> {
  const args = Object.fromEntries(Object.entries(given).map(([key, value]) => [key, value === NO_SUCH.agent ? liveAgentFor(name, key) : value]));
  const { call } = toolCalls(client);
  await call('collab_join', { name: 'explorer' });
  await call('collab_register_agent', { name: 'explorer-helper' });
  if (name.includes('plan') && name !== 'collab_create_plan') {
    // The plan the plan examples name, active: collab_create_plan's example made it inactive (or never ran).
    await client.callTool({ name: 'collab_create_plan', arguments: { id: 'explorer-demo', title: 'Explorer demo plan', goal: 'Try the plan tools.', agent: 'explorer' } });
    await call('collab_activate_plan', { id: 'explorer-demo', agent: 'explorer' });
  }
  const key = ['id', 'task_id'].find((k) => typeof args[k] === 'number');
  if (key === undefined) return args;
  const { task } = await call('collab_create_task', { title: `A task for the ${name} example`, assignee: 'explorer' });
  if (name === 'collab_replay_task') await call('collab_update_task', { id: task.id, status: 'blocked', blocked_by: 'waiting for the example' });
  if (TASK_IN_HAND.has(name)) {
    // An agent holds one task in progress at a time: an earlier example may have left one.
    const held = await call('collab_list_tasks', { assignee: 'explorer', exact: true, status: 'in_progress' });
    for (const { id } of held.tasks) await call('collab_update_task', { id, status: 'completed' });
    await call('collab_update_task', { id: task.id, status: 'in_progress' });
  }
  return { ...args, [key]: task.id };
}

interface WebviewWorld {
  readonly pages: PageServer;
  /** The browser webview_connect's example attaches to, started on first use. */
  outside(): Promise<{ endpoint: string }>;
}

/** The test pages, served for the whole file; a browser to attach to, started when first asked for. */
async function webviewWorldOf(): Promise<WebviewWorld> {
  const pages = await startPageServer();
  after(() => pages.close());
  // Started here, in the file's scope, so that it lives until the file ends (an `after` inside a test ends with the test).
  const outside = noChromium ? undefined : startOutsideBrowser();
  outside?.catch(() => undefined);
  return { pages, outside: () => outside! };
}

/** The elements a webview example's ref stands for, on the /example page, by tool. */
const REF_TARGETS: Record<string, [string, string]> = {
  webview_type: ['textbox', 'Search'],
  webview_press_key: ['textbox', 'Search'],
  webview_select_option: ['combobox', 'Language'],
};

/**
 * What the webview examples assume, made real on 127.0.0.1: https://example.com/ is the test
 * page that imitates it (/example: a heading, a paragraph, a link, an input `q`, a select
 * `lang`), open in the caller's tab before the call; a ref is the one the snapshot gives the
 * element the example means; a tab to select or close exists; the DevTools endpoint
 * webview_connect names is a Chromium started here.
 */
async function webviewWorld(world: WebviewWorld, client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const example = `${world.pages.url}/example`;
  const given = Object.fromEntries(Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value.replace(/^https:\/\/example\.com\/?/, example) : value]));
  if (name === 'webview_connect') {
    return { ...given, endpoint: (await world.outside()).endpoint };
  }
  if (name === 'webview_disconnect') return given;
  const { call } = toolCalls(client);
  await call('webview_navigate', { url: example });
  if (typeof given.ref === 'string') {
    const [role, label] = REF_TARGETS[name] ?? ['link', 'Learn more'];
    given.ref = refOf((await call('webview_snapshot')).snapshot, role, label);
  }
  if (typeof given.tab === 'string') given.tab = (await call('webview_tabs', { action: 'new', url: example })).selected;
  return given;
}

/** A memory for the examples that take an id (brain_forget). */
async function liveMemory(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'brain_remember', arguments: { content: `A memory for the examples, ${Date.now()}-${Math.random()}.`, type: 'observation' } });
  return (result.structuredContent as { memory: { id: string } }).memory.id;
}

/** `count` knowledge nodes, added for the purpose (each with content of its own, so no duplicate). */
async function liveNodes(client: Client, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const content = `A node for the examples, ${Date.now()}-${Math.random()}.`;
    const result = await client.callTool({ name: 'knowledge_add', arguments: { type: 'note', summary: 'Example node', content } });
    ids.push((result.structuredContent as { node: { id: string } }).node.id);
  }
  return ids;
}

/**
 * A running process for the examples that take an id: one that echoes its input, as the
 * process_start example starts (tools/list carries no input examples: the lean listing).
 */
async function liveProcess(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'process_start', arguments: { command: 'node', args: ['-e', 'process.stdin.pipe(process.stdout)'] } });
  return (result.structuredContent as { id: string }).id;
}

/**
 * Why the examples of these changing tools may name what they name: they create something
 * new (under an id the gateway picks, or a name they refuse when it is taken), run dry, or act
 * only on the caller's own browsing sessions.
 */
const INERT_BY_DESIGN: Record<string, string> = {
  dir_create: 'creates missing folders; an existing one is left as it is',
  file_multi_edit: 'dry_run',
  process_start: 'a new process',
  process_run: 'a new process running a harmless command',
  brain_remember: 'a new memory, expiring in an hour',
  brain_import: 'a new memory, already expired; an id already here is skipped',
  knowledge_add: 'a new node; the same content twice is refused',
  collab_create_task: 'a new task',
  collab_create_plan: 'a new plan, not made active; a taken id is refused',
  collab_spawn_worker: 'a new worker, named by the gateway',
  ide_session_create: 'a new session, its id chosen by the gateway',
  ide_dashboard_update: 'an empty change: no key is set',
  gateway_call_tool: 'calls gateway_status, which only reads',
};

/** Which argument names name an object, and the value that none can be. */
const NAMES: Record<string, (value: unknown) => boolean> = {
  id: (v) => [NO_SUCH.process, NO_SUCH.task, 'no-such-memory', 'n-000000000000'].includes(v as never),
  ids: (v) => Array.isArray(v) && v.every((id) => id === 'n-000000000000'),
  from: (v) => v === 'n-000000000000',
  to: (v) => v === 'n-000000000001' || v === NO_SUCH.agent,
  task_id: (v) => v === NO_SUCH.task,
  target: (v) => v === NO_SUCH.agent,
  name: (v) => v === NO_SUCH.agent,
  path: (v) => v === NO_SUCH.path,
  oldPath: (v) => v === NO_SUCH.path,
  source: (v) => v === NO_SUCH.path,
  sessionId: (v) => v === 'sess-00000000-0000-0000-0000-000000000000',
  endpoint: (v) => v === 'http://127.0.0.1:0',
};

/**
 * The rule of the examples (docs/rest.md): they run harmless commands only, and an example of
 * a tool that changes things, sent as it is, changes nothing that exists. Collab's act as no
 * agent (as a session that joined does), so the explorer's call is refused until one is named;
 * the plan tools, whose plans anyone may name, rely on that alone. Every other object a
 * changing example names is one that cannot exist (NAMES), unless the tool is inert by design.
 */
function assertInert(tool: RegisteredTool, args: Record<string, unknown>): void {
  const name = tool.listing.name;
  if (typeof args.command === 'string') assert.ok(HARMLESS_COMMANDS.has(args.command), `${name} runs ${args.command}`);
  // Acting as an agent marks it seen (a sign of life), read-only tools included.
  if (tool.plugin === 'collab') assert.ok(!('agent' in args), `${name}: a collab example acts as no agent (leave agent out)`);
  if (tool.listing.annotations?.readOnlyHint === true) return;
  if (name in INERT_BY_DESIGN || (tool.plugin === 'webview' && name !== 'webview_connect') || name.includes('_plan')) return;
  for (const [key, value] of Object.entries(args)) {
    if (key in NAMES) assert.ok(NAMES[key]!(value), `${name}: ${key} ${JSON.stringify(value)} can name an existing object; see NO_SUCH`);
  }
}
