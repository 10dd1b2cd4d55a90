import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { listenHttp } from '../../core/http/http-server.js';
import { BUILTIN_REGISTRY_DIR, loadRegistry } from '../../core/plugins/registry.js';
import { startEmbeddingsServer } from '../fixtures/embeddings-server/server.js';
import { startIdeBackend } from '../fixtures/ide-backend/server.js';
import { startPageServer } from '../fixtures/webview-pages/server.js';
import { memoryClient, startGateway, tempDir, toolCalls } from '../helpers.js';
import { noChromium } from '../plugins/webview/webview-helpers.js';
import { memory } from '../plugins/brain/remote-helpers.js';

/**
 * Every example the explorer (/docs) offers as a request body, sent as it is with the owner
 * key, as "Execute" sends it, to a gateway that holds the user's own work under the names the
 * examples use (and used to use): running processes proc-1 and proc-2, collab task 1 in
 * progress and task 9007199254740991, the agents, plan, lock and worker the examples name,
 * the docs and code collections, a memory with brain_import's id, the files in scratch/ and
 * one next to the workspace, an IDE session and dashboard key, another client's browser tab.
 * Nothing that existed before may have changed after: no stored row, file, process, IDE
 * backend record or browsing session. (The rule: docs/rest.md, "The examples are safe to send".)
 */
describe('the explorer examples, sent as they are to a gateway full of real objects', async () => {
  const root = realpathSync(tempDir());
  const workspace = join(root, 'project');
  const dataDir = join(tempDir(), 'data');
  const embeddings = await startEmbeddingsServer({ dimensions: 8 });
  after(() => embeddings.close());
  const ide = await startIdeBackend();
  after(() => ide.close());
  const pages = await startPageServer();
  after(() => pages.close());
  const registry = loadRegistry([BUILTIN_REGISTRY_DIR]);
  const plugins = Object.fromEntries([...registry.keys()].map((name) => [name, {}]));
  const quick = { navigationTimeoutMs: 3000, actionTimeoutMs: 1000, evalTimeoutMs: 1000 };
  writeWorkspace(root, workspace);
  const gateway = await startGateway({
    auth: 'key',
    dataDir,
    workspace,
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
    plugins: {
      ...plugins,
      echo: { enabled: false },
      embeddings: { config: { provider: 'ollama', url: embeddings.url, model: 'test-model', dimensions: 8 } },
      collab: { config: { workers: { kinds: { tester: { command: ['node', '-e', 'process.stdin.resume()'] } } } } },
      'ide-bridge': { config: { url: ide.url } },
      // On, as the example needs it, so that its refusal is the example's doing and not the config's.
      webview: { enabled: !noChromium, config: { connect: { enabled: true }, limits: quick } },
    },
  });
  const listener = await listenHttp(gateway);
  after(() => listener.close());
  const base = `http://127.0.0.1:${listener.address.port}`;
  const rest = async (name: string, args: unknown): Promise<{ success: boolean; data?: any; error?: { code: string } }> => {
    const answer = await fetch(`${base}/tools/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.ownerKey!.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(args),
    });
    return answer.json() as Promise<any>;
  };
  const made = async (name: string, args: unknown) => {
    const answer = await rest(name, args);
    assert.equal(answer.success, true, `${name}: ${JSON.stringify(answer.error)}`);
    return answer.data;
  };

  // The user's agent, in a session of its own, and the user's other client's browser tab.
  const agent = toolCalls(await memoryClient(gateway, 'the-users-agent'));
  await agent.call('collab_join', { name: 'explorer', display_name: 'The user’s agent', capabilities: ['research'] });
  await made('collab_register_agent', { name: 'explorer-helper', capabilities: ['docs'] });
  const devServer = await made('process_start', { command: 'node', args: ['-e', 'setInterval(() => {}, 1 << 30)'], tags: { role: 'dev-server' } });
  const echo = await made('process_start', { command: 'node', args: ['-e', 'process.stdin.pipe(process.stdout)'], tags: { role: 'echo' } });
  assert.deepEqual([devServer.id, echo.id], ['proc-1', 'proc-2']);
  const task1 = (await agent.call('collab_create_task', { title: 'The user’s first task', assignee: 'explorer' })).task;
  assert.equal(task1.id, 1);
  await agent.call('collab_update_task', { id: 1, status: 'in_progress' });
  await made('collab_create_task', { agent: 'explorer-helper', title: 'A pending task', assignee: 'explorer-helper' });
  await agent.call('collab_create_plan', { id: 'explorer-demo', title: 'The user’s plan', goal: 'Ship it.', set_active: false });
  await agent.call('collab_add_plan_item', { plan_id: 'explorer-demo', id: 'try-it', title: 'The user’s item' });
  await agent.call('collab_create_plan', { id: 'release', title: 'The active plan', goal: 'Release.' });
  await agent.call('collab_lock_file', { path: 'README.md', reason: 'the user is rewriting it', duration_minutes: 60 });
  await made('collab_send_message', { agent: 'explorer-helper', to: 'explorer', subject: 'Unread', body: 'For the user to read.' });
  await agent.call('collab_append_note', { category: 'decision', content: 'The user’s decision.' });
  await agent.call('collab_spawn_worker', { kind: 'tester', name: 'tester-1' });
  // A task with the largest id the schema takes, the one the examples name: ids count up, so this one is reached by moving the counter.
  const shared = new BetterSqlite3(join(dataDir, 'shared.db'));
  shared.prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'collab_tasks'").run(Number.MAX_SAFE_INTEGER - 1);
  shared.close();
  assert.equal((await made('collab_create_task', { agent: 'explorer-helper', title: 'The task with the largest id' })).task.id, Number.MAX_SAFE_INTEGER);
  const [a, b] = [await made('knowledge_add', { type: 'decision', summary: 'Errors', content: 'Errors carry a code.' }), await made('knowledge_add', { type: 'note', summary: 'Docs', content: 'Docs live in docs/.' })];
  await made('knowledge_link', { from: a.node.id, to: b.node.id, relation: 'relates_to' });
  await made('rag_ingest', { path: 'README.md', collection: 'docs' });
  await made('rag_ingest', { path: 'src', collection: 'code' });
  await made('brain_remember', { content: 'The user’s own memory.', type: 'fact' });
  await made('brain_import', { memories: [{ ...IMPORTED, content: 'The user’s memory with the id brain_import’s example names.' }] });
  // No memory can have brain_forget's id: the ids a brain stores are UUIDs.
  assert.equal((await rest('brain_remember', { content: 'x', type: 'fact', id: 'no-such-memory' })).error?.code, 'INVALID_ARGUMENTS');
  await made('ide_dashboard_update', { state: { explorerNote: 'The team’s note.' } });
  await made('ide_chat_send', { sessionId: 'sess-demo', message: 'The user’s question.' });
  const browsing = noChromium ? undefined : toolCalls(await memoryClient(gateway, 'the-users-browser'));
  await browsing?.call('webview_navigate', { url: `${pages.url}/example` });
  await browsing?.call('webview_tabs', { action: 'new', url: `${pages.url}/example` });

  it('changes none of them', async () => {
    const before = await snapshot();
    const examples = await explorerExamples(base);
    const without = gateway.catalog.list().filter((tool) => !examples.get(tool.listing.name)?.length);
    assert.deepEqual(without.map((tool) => tool.listing.name), [], 'every tool offers an example');
    const sent: string[] = [];
    for (const [name, bodies] of examples) {
      for (const body of bodies) {
        const answer = await rest(name, body);
        sent.push(`${name} ${JSON.stringify(body)} → ${answer.success ? 'ok' : answer.error?.code}`);
      }
    }
    const now = await snapshot();
    // What was there before and is not now, as it was: changed or gone. (New objects may be there: examples may create.)
    const changed = [...before].flatMap(([what, rows]) => [...rows].filter((row) => !now.get(what)?.has(row)).map((row) => `${what}: ${row}`));
    assert.deepEqual(changed, [], `The examples sent:\n${sent.join('\n')}`);
  });

  /** Everything the user had, as comparable strings by kind: stored rows, files, processes, the IDE backend, the other client's tabs. */
  async function snapshot(): Promise<Map<string, Set<string>>> {
    const out = new Map<string, Set<string>>();
    for (const file of ['shared.db', 'gateway.db']) {
      const db = new BetterSqlite3(join(dataDir, file), { readonly: true });
      // Not the full-text indexes' segments: any new row (a memory an example made) rewrites them.
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_data' AND name NOT LIKE '%_fts_idx'").all();
      for (const { name } of tables as Array<{ name: string }>) {
        if (name in GATEWAY_OWN) continue;
        out.set(`${file} ${name}`, new Set((db.prepare(`SELECT * FROM "${name}"`).all() as object[]).map((row) => JSON.stringify(row))));
      }
      db.close();
    }
    out.set('files', new Set(entriesUnder(root).map((path) => (path.endsWith('/') ? relative(root, path) : `${relative(root, path)}: ${readFileSync(path, 'base64')}`))));
    const processes = await made('process_list', {});
    out.set('processes', new Set(processes.processes.map((p: any) => JSON.stringify({ id: p.id, pid: p.pid, status: p.status }))));
    out.set('ide sessions', new Set([...ide.state.sessions.values()].map((s: unknown) => JSON.stringify(s))));
    out.set('ide chats', new Set([...ide.state.chats.entries()].map((entry: unknown) => JSON.stringify(entry))));
    out.set('ide dashboard', new Set([JSON.stringify(ide.state.dashboard.state)]));
    if (browsing) out.set('browser tabs', new Set([JSON.stringify((await browsing.call('webview_tabs', { action: 'list' })).tabs)]));
    return out;
  }
});

/** Tables of the gateway's own bookkeeping, which every call moves on, by why. */
const GATEWAY_OWN: Record<string, string> = {
  core_audit_folded: 'how far the audit journal is folded into core_audit (whose rows are only ever added)',
};

/** brain_import's example memory, as the user's own (live) one. */
const IMPORTED = memory({ id: '00000000-0000-4000-8000-00000000e001', agent_id: 'the-user', tags: [], project: null, confidence: 0.9 });

/** The workspace, with the files the examples name, and a file just outside it where theirs point. */
function writeWorkspace(root: string, workspace: string): void {
  const files: Record<string, string> = {
    'project/README.md': '# The user’s project\n\nHow to install it: npm install.\n',
    'project/package.json': '{"name": "the-users-project"}\n',
    'project/src/app.ts': 'export const answer = 42; // TODO\n',
    'project/scratch/hello.txt': 'Hello from the user: not the explorer’s to change.\n',
    'project/scratch/renamed.txt': 'The user’s renamed file.\n',
    'project/scratch/new-folder/kept.txt': 'The user’s folder.\n',
    'outside-the-workspace.txt': 'The user’s file next to the workspace.\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(workspace, { recursive: true });
}

/** Every folder (ending in /) and file under `dir`. */
function entriesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [`${path}/`, ...entriesUnder(path)] : [path];
  });
}

/** Every request body the explorer offers, tool by tool: its document's `example`, or each of its `examples`. */
async function explorerExamples(base: string): Promise<Map<string, unknown[]>> {
  const doc = (await (await fetch(`${base}/docs/json`)).json()) as { paths: Record<string, any> };
  const out = new Map<string, unknown[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    const media = item.post?.requestBody?.content?.['application/json'];
    if (!path.startsWith('/tools/') || !media) continue;
    const bodies = media.examples ? Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value) : [media.example];
    out.set(path.slice('/tools/'.length), bodies.filter((body) => body !== undefined));
  }
  return out;
}
