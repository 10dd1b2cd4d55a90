import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequestRaw, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { Client, InMemoryTransport, type Client as ModernClient, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { stringify } from 'yaml';
import { createSchemaCompiler, type JsonSchema } from '../core/lib/schema.js';
import { resolveConfig, type GatewayConfig } from '../core/config/config.js';
import { createGateway, type Gateway } from '../core/gateway/gateway.js';
import { mcpFace } from '../core/mcp/mcp-face.js';
import { createLogger } from '../core/lib/logger.js';
import type { SocketAddress } from '../core/contract/addresses.js';
import { testSession } from '../core/testing/test-session.js';
import { ROOT } from './support/repository.js';

/**
 * The test tree that is running: dist/test, compiled once by `npm run build:tests`, with the
 * fixtures' other files copied beside it (scripts/copy-test-assets.js). Fixtures are taken
 * from here, so that a TypeScript fixture is its compiled JavaScript.
 */
export const TESTS = import.meta.dirname;
export { ROOT };

/** Any result at all, for `client.request` of a request that must fail (SDK v2 wants a schema for a method it may not know). */
export const ANY_RESULT: StandardSchemaV1<unknown, unknown> = { '~standard': { version: 1, vendor: 'mcp-gateway-tests', validate: (value) => ({ value }) } };
export const BIN = join(ROOT, 'bin', 'mcp-gateway.js');
export const FIXTURE_REGISTRY = join(TESTS, 'fixtures', 'external-plugin', 'registry');
export const LIBRARY_REGISTRY = join(TESTS, 'fixtures', 'content-plugin', 'registry');
/** Config overrides that add the library fixture plugin (resources, templates, prompts) beside echo. */
export const WITH_LIBRARY = { registries: [FIXTURE_REGISTRY, LIBRARY_REGISTRY], plugins: { echo: {}, library: {} } };
/** The `notify` fixture plugin: notifications and run-time tools on request. */
export const NOTIFY_REGISTRY = join(TESTS, 'fixtures', 'notify-plugin', 'registry');
/** The `relay` fixture plugin: relayed tools (foreign schemas, origin), services '*', a status report, resource hooks. */
export const RELAY_REGISTRY = join(TESTS, 'fixtures', 'relay-plugin', 'registry');
/** Config overrides that add the relay fixture plugin beside echo. */
export const WITH_RELAY = { registries: [FIXTURE_REGISTRY, RELAY_REGISTRY], plugins: { echo: {}, relay: {} } };
/** The example plugin of docs/writing-a-plugin.md, built beside the tests. */
export const NOTES_REGISTRY = join(TESTS, '..', 'docs', 'examples', 'notes-plugin', 'registry');
/** The `conformance` fixture plugin: the tools, resources and prompts of the MCP conformance suite. */
export const CONFORMANCE_REGISTRY = join(TESTS, 'fixtures', 'conformance-plugin', 'registry');

/** A notification as a client received it. */
export interface Received {
  method: string;
  params?: any;
}

/** Records every notification `client` receives that has no handler of its own. */
export function recordNotifications(client: Client): Received[] {
  const received: Received[] = [];
  client.fallbackNotificationHandler = async (notification) => {
    received.push({ method: notification.method, params: notification.params });
  };
  return received;
}

/** A fresh temporary directory, removed when the test file ends. */
export function tempDir(prefix = 'mcpgw-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // Retried: a child process that is still winding down may write one more file there.
  after(() => rmSync(dir, { recursive: true, force: true, maxRetries: 5 }));
  return dir;
}

/**
 * The config a test gateway runs with: the echo fixture plugin, no listeners, silent logs,
 * and `auth: none`, so that tests of other things need no key (test/core/auth.test.ts and
 * the e2e tests cover the default, `auth: key`).
 */
export function testConfigObject(dir: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dataDir: join(dir, 'data'),
    auth: 'none',
    workspace: dir,
    logLevel: 'silent',
    registries: [FIXTURE_REGISTRY],
    plugins: { echo: {} },
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
    ...overrides,
  };
}

export function testConfig(dir: string, overrides: Record<string, unknown> = {}): GatewayConfig {
  return resolveConfig(testConfigObject(dir, overrides), { env: process.env, cwd: dir });
}

export async function startGateway(overrides: Record<string, unknown> = {}, dir = tempDir()): Promise<Gateway> {
  const config = testConfig(dir, overrides);
  const gateway = await createGateway({ config, log: createLogger(config.logLevel) });
  after(() => gateway.close());
  return gateway;
}

/** A real SDK Client connected to `gateway` over the in-memory transport pair. */
export async function memoryClient(gateway: Gateway, name = 'test-client'): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await (await mcpFace(gateway)).connect(serverSide, { transport: 'memory', peer: 'memory' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  after(() => client.close());
  return client;
}

/** A JSON-RPC error answer as it came on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: any;
}

/**
 * Records the JSON-RPC error answers `client` receives from now on, as they came on the wire:
 * SDK v2's client turns a resource-not-found (-32002 with `data.uri`) into its own
 * ResourceNotFoundError (-32602, `data: {uri}`), which hides the code and data the gateway sent
 * a 2025 client. Call it after connect.
 */
export function recordWireErrors(client: Client): WireError[] {
  const errors: WireError[] = [];
  const transport = client.transport!;
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const error = (message as { error?: WireError }).error;
    if (error !== undefined) errors.push(error);
    deliver.call(transport, message, extra);
  };
  return errors;
}

/**
 * `call` (a tool's structuredContent, or throws on an error result) and `fail` (a call that must
 * fail: its `{code, message, details}`), through `client`: @mcp-gateway/core/testing's own session helpers.
 */
export function toolCalls(client: Client) {
  const { call, fail } = testSession(client);
  return { call, fail };
}

/**
 * A real SDK Client over TCP or a unix socket (the SDK's stdio transport works on sockets). With
 * `apiKey`, the key goes in initialize as params._meta.apiKey, as a socket client of a gateway
 * with keys sends it. A client whose initialize fails leaves no socket open.
 */
export async function socketClient(address: SocketAddress, name = 'socket-client', apiKey?: string): Promise<{ client: Client; socket: Socket }> {
  const socket = address.kind === 'tcp' ? connect(address.port, address.host) : connect(address.path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StdioServerTransport(socket, socket);
  if (apiKey !== undefined) {
    const send = transport.send.bind(transport);
    transport.send = (message) => {
      const m = message as { method?: string; params?: Record<string, unknown> };
      if (m.method === 'initialize') m.params = { ...m.params, _meta: { apiKey } };
      return send(message);
    };
  }
  const close = transport.close.bind(transport);
  transport.close = async () => {
    socket.end();
    await close();
  };
  try {
    await client.connect(transport);
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return { client, socket };
}

/** A TCP port free on 127.0.0.1 a moment ago (for a server a test must stop and start again on one port). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Writes a YAML config file and returns its path. */
export function writeConfig(dir: string, config: Record<string, unknown>, name = 'gateway.config.yaml'): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(config));
  return file;
}

export type ListeningAddress = SocketAddress | { kind: 'http'; host: string; port: number };

export interface GatewayProcess {
  child: ChildProcessWithoutNullStreams;
  stderrLines: string[];
  /** Resolves with the addresses from the gateway's "listening" log lines. */
  listening(count: number, timeoutMs?: number): Promise<ListeningAddress[]>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

/** Starts the real `mcp-gateway` binary. */
export function spawnGateway(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): GatewayProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderrLines: string[] = [];
  const waiters: Array<() => void> = [];
  let pending = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop()!;
    stderrLines.push(...lines);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const listening = async (count: number, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const addresses = stderrLines
        .map((line) => safeJson(line))
        .filter((entry) => entry?.msg === 'listening')
        .map((entry) => entry!.address as ListeningAddress);
      if (addresses.length >= count) return addresses;
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`gateway did not start listening:\n${stderrLines.join('\n')}`);
      }
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    child.kill(signal);
    return exited;
  };
  return { child, stderrLines, listening, stop, exited };
}

export function safeJson(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The JSON inside a tool result's first text block. */
export function resultJson(result: unknown): any {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return JSON.parse(content[0]!.text!);
}

/** A compiler for an OpenAPI document's schemas, which carry OpenAPI's `example` beside JSON Schema. */
export function documentCompiler(doc: any) {
  const ajv = createSchemaCompiler();
  ajv.addKeyword('example');
  const local = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"doc#/$defs/'));
  ajv.addSchema({ $id: 'doc', $defs: local(doc.components.schemas) });
  return (schema: JsonSchema) => ajv.compile(local(schema));
}

/** Polls `condition` until it holds; throws after `ms`. */
export async function waitFor(condition: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The outcome of the latest audited call of `tool`. */
export function lastOutcome(gateway: Gateway, tool: string): string | undefined {
  gateway.audit?.flush();
  const row = gateway.db.prepare('SELECT outcome FROM core_audit WHERE tool = ? ORDER BY id DESC LIMIT 1').get(tool) as { outcome: string } | undefined;
  return row?.outcome;
}

/** What `app.inject` answers, for a request made on a real socket instead. */
export interface HttpAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders | OutgoingHttpHeaders;
  body: string;
  json(): any;
}

/**
 * One HTTP/1.1 request to a listening server, shaped like fastify's `inject` (an object
 * payload is sent as JSON with its content type), so one test can run both ways. node:http,
 * not fetch: tests send headers fetch refuses to set (Host) and bodies fetch would re-encode.
 */
export function httpRequest(
  port: number,
  options: { method: string; url: string; headers?: Record<string, string>; payload?: unknown },
): Promise<HttpAnswer> {
  const { payload } = options;
  const headers = { ...options.headers };
  let body: string | Buffer | undefined;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) body = payload;
  else if (payload !== undefined) {
    body = JSON.stringify(payload);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequestRaw({ host: '127.0.0.1', port, method: options.method, path: options.url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode: res.statusCode!, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    // The server may answer (413, say) before it has read a large body, and close.
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * What a 2026-07-28 client's `subscriptions/listen` for tool-list changes hears while the
 * conformance fixture's hook changes the list once: `['tools']` when the stream is told.
 */
export async function toolListChangesHeard(client: ModernClient): Promise<string[]> {
  const heard: string[] = [];
  client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
  const subscription = await client.listen({ toolsListChanged: true });
  await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
  await subscription.close();
  return heard;
}

/**
 * What the relay fixture's onSubscribe and onUnsubscribe were told, in order (relay_hooks), once
 * there are at least `count` calls or 2 s have passed: a closing stream tells its entries after
 * it is gone. Any SDK's client.
 */
export async function relayHookCalls(
  client: { callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ structuredContent?: unknown }> },
  count = 0,
): Promise<string[]> {
  for (let i = 0; ; i++) {
    const { calls } = (await client.callTool({ name: 'relay_hooks', arguments: {} })).structuredContent as { calls: string[] };
    if (calls.length >= count || i >= 100) return calls;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
