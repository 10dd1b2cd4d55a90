#!/usr/bin/env node
// The collab bench's baseline: a bare MCP SDK server on TCP that does the least a shared task
// board must do — tasks in a SQLite file (WAL, the same engine the gateway's default store
// uses), a claim as one conditional UPDATE, messages notified straight to the recipient's
// session. No validation, no audit, no identity checks, no events, no retention: the limit.
//   bare-collab.js --tcp 127.0.0.1:0 --db /tmp/x.db
// Prints {"msg":"listening","address":...} on stderr like the gateway, stops on SIGTERM.
import { createServer } from 'node:net';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { tcp: { type: 'string' }, db: { type: 'string' } } });
const db = new Database(values.db);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`create table if not exists tasks (id integer primary key autoincrement, title text not null, priority integer not null,
  status text not null, assignee text not null, created_at text not null, finished_at text);
  create index if not exists tasks_queue on tasks (status, priority, id);
  create table if not exists messages (id integer primary key autoincrement, from_agent text, to_agent text, body text, created_at text)`);
const createTask = db.prepare("insert into tasks (title, priority, status, assignee, created_at) values (?, ?, 'pending', 'any', ?) returning id");
const claim = db.prepare(`update tasks set status = 'in_progress', assignee = ? where id = (
  select id from tasks where status = 'pending' and assignee in ('any', ?) order by priority, id limit 1) returning id, title`);
const complete = db.prepare("update tasks set status = 'completed', finished_at = ? where id = ? and assignee = ? and status = 'in_progress'");
const insertMessage = db.prepare('insert into messages (from_agent, to_agent, body, created_at) values (?, ?, ?, ?) returning id');

/** Agent → the servers (sessions) joined as it. */
const sessions = new Map();
const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
const tools = ['join', 'create_task', 'claim_next', 'complete', 'send'].map((name) => ({ name, inputSchema: { type: 'object' } }));

function session() {
  const server = new Server({ name: 'bare-collab', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  let agent;
  server.setRequestHandler('tools/list', () => ({ tools }));
  server.setRequestHandler('tools/call', async (request) => {
    const args = request.params.arguments ?? {};
    const now = new Date().toISOString();
    switch (request.params.name) {
      case 'join':
        agent = args.name;
        if (!sessions.has(agent)) sessions.set(agent, new Set());
        sessions.get(agent).add(server);
        return text({ agent });
      case 'create_task':
        return text(createTask.get(args.title, args.priority ?? 3, now));
      case 'claim_next': {
        const task = claim.get(agent, agent);
        return text(task ? { action: 'claimed', task } : { action: 'idle' });
      }
      case 'complete':
        return text({ completed: complete.run(now, args.id, agent).changes === 1 });
      case 'send': {
        const { id } = insertMessage.get(agent, args.to, args.body, now);
        const data = { id, from: agent, to: args.to, preview: args.body.slice(0, 160) };
        for (const peer of sessions.get(args.to) ?? []) {
          void peer.notification({ method: 'notifications/claude/channel', params: { channel: 'collab.message', data } }).catch(() => {});
        }
        return text({ id });
      }
      default:
        throw Object.assign(new Error('Unknown tool'), { code: -32602 });
    }
  });
  server.onclose = () => sessions.get(agent)?.delete(server);
  return server;
}

const listener = createServer((socket) => {
  socket.setNoDelay(true);
  socket.on('error', () => {});
  const server = session();
  socket.once('close', () => void server.close().catch(() => {}));
  server.connect(new StdioServerTransport(socket, socket)).catch(() => socket.destroy());
});
const i = values.tcp.lastIndexOf(':');
const host = values.tcp.slice(0, i);
listener.listen({ host, port: Number(values.tcp.slice(i + 1)) }, () => {
  process.stderr.write(`${JSON.stringify({ msg: 'listening', address: { kind: 'tcp', host, port: listener.address().port } })}\n`);
});
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.once(signal, () => {
    listener.close();
    db.close();
    process.exit(0);
  });
}
