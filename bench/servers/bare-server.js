#!/usr/bin/env node
// The bare baselines as a child process, the counterpart of `bin/mcp-gateway.js`:
//   bare-server.js stdio                        one MCP session on stdin/stdout
//   bare-server.js stdio-2026                   the same in either era: the SDK's serveStdio entry
//   bare-server.js serve --tcp H:P --unix PATH --http H:P --rest H:P
// `serve` prints one {"msg":"listening","address":...} line per listener on stderr, the same
// shape as the gateway's log, and stops on SIGTERM/SIGINT.
// Framing on stdio/TCP/unix: the SDK's own StdioServerTransport (what a bare SDK server uses),
// or the gateway's NdjsonTransport from dist/ with BARE_FRAMING=gateway.
// Only what `stdio` needs is imported up front, so its start-up time is a fair reference;
// `serve` loads fastify and the HTTP transport when it starts.
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { existsSync, unlinkSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { echo, ECHO_TOOL, echoInputSchema } from '../plugins/bench-echo/echo.js';
import { createBareServer } from './bare-mcp.js';

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const framing = process.env.BARE_FRAMING === 'gateway' ? 'gateway' : 'sdk';
const { NdjsonTransport } = framing === 'gateway' ? await import('../../dist/core/mcp/ndjson-transport.js') : {};

function streamTransport(input, output, onEnd) {
  if (framing === 'gateway') return new NdjsonTransport(input, output, { maxMessageBytes: MAX_MESSAGE_BYTES, onEnd });
  return new StdioServerTransport(input, output);
}

function announce(address) {
  process.stderr.write(`${JSON.stringify({ msg: 'listening', address })}\n`);
}

function hostPort(value) {
  const i = value.lastIndexOf(':');
  return [value.slice(0, i), Number(value.slice(i + 1))];
}

/** Both eras on stdin/stdout, as SDK v2 serves them: its era entry, the first message deciding. */
async function serveStdioEras() {
  const { serveStdio } = await import('@modelcontextprotocol/server/stdio');
  const done = new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  const handle = serveStdio(() => createBareServer(), { transport: streamTransport(process.stdin, process.stdout, () => {}) });
  await done;
  await handle.close().catch(() => {});
  process.exit(0);
}

async function serveStdio() {
  const server = createBareServer();
  const done = new Promise((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(streamTransport(process.stdin, process.stdout, () => {}));
  await done;
  await server.close().catch(() => {});
  process.exit(0);
}

function socketListener() {
  return createNetServer((socket) => {
    socket.setNoDelay(true);
    // An EPIPE or ECONNRESET without a listener would crash the process.
    socket.on('error', () => {});
    const server = createBareServer();
    // The SDK's stdio transport never notices the socket ending and never ends it itself.
    const transport = streamTransport(socket, socket, () => socket.end());
    socket.once('close', () => void server.close().catch(() => {}));
    server.connect(transport).catch(() => socket.destroy());
  });
}

function listen(server, options) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options, () => resolve(server.address()));
  });
}

/**
 * `/mcp` in both eras, as the gateway serves it: 2025 sessions on the SDK's Node transport, and
 * a session-less request that claims 2026-07-28 in its `_meta` on the SDK's era entry, strict.
 */
function httpMcpListener({ NodeStreamableHTTPServerTransport, toNodeHandler }, createMcpHandler) {
  const sessions = new Map();
  const modern = toNodeHandler(createMcpHandler(() => createBareServer(), { legacy: 'reject' }));
  return createHttpServer(async (req, res) => {
    try {
      if (req.url !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      let body;
      if (req.method === 'POST') {
        const chunks = [];
        for await (const chunk of req) chunks.push(chunk);
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      }
      const id = req.headers['mcp-session-id'];
      if (id === undefined && body?.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
        await modern(req, res, body);
        return;
      }
      let transport = typeof id === 'string' ? sessions.get(id) : undefined;
      if (!transport) {
        if (typeof id === 'string' || req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(typeof id === 'string' ? 404 : 400).end();
          return;
        }
        const sessionId = randomUUID();
        transport = new NodeStreamableHTTPServerTransport({
          sessionIdGenerator: () => sessionId,
          onsessioninitialized: (sid) => sessions.set(sid, transport),
        });
        transport.onclose = () => sessions.delete(sessionId);
        await createBareServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
}

/**
 * The REST baselines on one fastify: `/tools/<tool>`, a bare route running the same handler
 * with no validation; and `/audited/tools/<tool>`, the least a gateway that audits must do —
 * the body checked against the tool's schema by the same Ajv2020 (defaults applied), and the
 * same audit line (time, caller, tool, sha-256 of the arguments, their summary, duration,
 * outcome) appended to a journal file with one write(2) before the reply leaves.
 */
async function restListener(host, port) {
  const { default: Fastify } = await import('fastify');
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const { hash } = await import('node:crypto');
  const { closeSync, openSync, rmSync, writeSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const validate = new Ajv2020({ allErrors: true, useDefaults: true, strict: false }).compile(echoInputSchema);
  const journalFile = join(tmpdir(), `bare-audit-${process.pid}.jsonl`);
  const journal = openSync(journalFile, 'a', 0o600);
  const app = Fastify({ logger: false });
  app.post(`/tools/${ECHO_TOOL}`, async (request) => ({ success: true, data: echo(request.body) }));
  app.post(`/audited/tools/${ECHO_TOOL}`, async (request, reply) => {
    const started = Date.now();
    const args = request.body;
    const valid = validate(args);
    const outcome = valid ? 'ok' : 'INVALID_ARGUMENTS';
    const json = JSON.stringify(args ?? null);
    const row = [new Date(started).toISOString(), 'rest', null, request.ip, 'bench-echo', ECHO_TOOL, hash('sha256', json), json.length > 512 ? `${json.slice(0, 512)}…` : json, Date.now() - started, outcome, 'tool'];
    writeSync(journal, `${JSON.stringify(row)}\n`);
    if (!valid) return reply.code(400).send({ success: false, error: { code: 'INVALID_ARGUMENTS', message: 'invalid arguments', details: validate.errors } });
    return { success: true, data: echo(args) };
  });
  await app.listen({ host, port });
  const info = app.server.address();
  const close = () => {
    closeSync(journal);
    rmSync(journalFile, { force: true });
    return app.close();
  };
  return { close, port: info.port };
}

async function serve(values) {
  const closers = [];
  if (values.tcp) {
    const [host, port] = hostPort(values.tcp);
    const server = socketListener();
    const info = await listen(server, { host, port });
    closers.push(() => server.close());
    announce({ kind: 'tcp', host, port: info.port });
  }
  if (values.unix) {
    if (existsSync(values.unix)) unlinkSync(values.unix);
    const server = socketListener();
    await listen(server, values.unix);
    closers.push(() => server.close());
    announce({ kind: 'unix', path: values.unix });
  }
  if (values.http) {
    const [host, port] = hostPort(values.http);
    const server = httpMcpListener(await import('@modelcontextprotocol/node'), (await import('@modelcontextprotocol/server')).createMcpHandler);
    server.keepAliveTimeout = 72_000;
    const info = await listen(server, { host, port });
    closers.push(() => server.closeAllConnections?.(), () => server.close());
    announce({ kind: 'http', host, port: info.port });
  }
  if (values.rest) {
    const [host, port] = hostPort(values.rest);
    const rest = await restListener(host, port);
    closers.push(() => rest.close());
    announce({ kind: 'rest', host, port: rest.port });
  }
  const stop = () => {
    for (const close of closers) close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

const { values, positionals } = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: { tcp: { type: 'string' }, unix: { type: 'string' }, http: { type: 'string' }, rest: { type: 'string' } },
});
if (positionals[0] === 'stdio') await serveStdio();
else if (positionals[0] === 'stdio-2026') await serveStdioEras();
else if (positionals[0] === 'serve') await serve(values);
else {
  process.stderr.write('usage: bare-server.js stdio | stdio-2026 | serve [--tcp H:P] [--unix PATH] [--http H:P] [--rest H:P]\n');
  process.exit(2);
}
