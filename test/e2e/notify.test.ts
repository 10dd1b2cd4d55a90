import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApiKey } from '../../core/auth/api-keys.js';
import { listenHttp } from '../../core/http/http-server.js';
import { listenSocket } from '../../core/mcp/socket-server.js';
import { BIN, FIXTURE_REGISTRY, NOTIFY_REGISTRY, recordNotifications, socketClient, startGateway, tempDir, waitFor, writeConfig, type Received } from '../helpers.js';

const CHANNEL = 'notifications/claude/channel';
const CHANNELS = { channels: ['notify.messages', 'notify.replies'] };

interface Agent {
  name: string;
  client: Client;
  inbox: Received[];
  sessionId: string;
}

async function send(agent: Agent, args: Record<string, unknown>): Promise<number> {
  const result = await agent.client.callTool({ name: 'notify_send', arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return (result.structuredContent as { sent: number }).sent;
}

/** The channel data `agent` received, up to and without `marker`, removed from its inbox. */
function takeUntil(agent: Agent, marker: string): unknown[] {
  const at = agent.inbox.findIndex((n) => n.params?.data === marker);
  return agent.inbox.splice(0, at + 1).slice(0, -1).map((n) => n.params?.data);
}

/**
 * Over /mcp, notifications outside a request travel on the GET stream the SDK client opens
 * after `initialized`; a notification sent before it is open is dropped (the gateway keeps no
 * event store). Sends probes to the session until one arrives: from then on it is listening.
 */
async function untilListening(agent: Agent): Promise<void> {
  for (let probe = 1; ; probe++) {
    const data = `probe-${probe}`;
    await send(agent, { target: { session: agent.sessionId }, kind: 'channel', data });
    try {
      await waitFor(() => agent.inbox.some((n) => n.params?.data === data), 250);
      agent.inbox.splice(0);
      return;
    } catch (err) {
      if (probe === 40) throw err;
    }
  }
}

async function sessionIdOf(client: Client): Promise<string> {
  const result = await client.callTool({ name: 'notify_self', arguments: { text: 'whoami' } });
  return (result.structuredContent as { sessionId: string }).sessionId;
}

describe('notifications over /mcp and TCP: two API keys, two identities', async () => {
  const alice = createApiKey();
  const bob = createApiKey();
  const gateway = await startGateway({
    auth: 'key',
    registries: [FIXTURE_REGISTRY, NOTIFY_REGISTRY],
    plugins: { echo: {}, notify: {} },
    apiKeys: [
      { name: 'alice', hash: alice.hash, scopes: ['*'] },
      { name: 'bob', hash: bob.hash, scopes: ['*'] },
    ],
  });
  const http = await listenHttp(gateway, { ...gateway.config.transports.http, port: 0 });
  const tcp = await listenSocket(gateway, { kind: 'tcp', host: '127.0.0.1', port: 0 }, gateway.config.transports.tcp);
  after(() => Promise.all([http.close(), tcp.close()]));

  const overHttp = async (name: string, key: string): Promise<Agent> => {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${http.address.port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: `${name}-client`, version: '1.0.0' });
    const inbox = recordNotifications(client);
    await client.connect(transport);
    after(() => client.close());
    const agent = { name, client, inbox, sessionId: transport.sessionId! };
    await untilListening(agent);
    return agent;
  };
  const overTcp = async (name: string, key: string): Promise<Agent> => {
    const { client } = await socketClient(tcp.address, `${name}-tcp`, key);
    after(() => client.close());
    const inbox = recordNotifications(client);
    const sessionId = await sessionIdOf(client);
    // notify_self's own reply arrives ahead of its result.
    inbox.splice(0);
    return { name, client, inbox, sessionId };
  };
  const agents = [await overHttp('alice', alice.key), await overHttp('alice', alice.key), await overTcp('alice', alice.key), await overHttp('bob', bob.key), await overTcp('bob', bob.key)];
  const [aliceHttp1, aliceHttp2, aliceTcp, bobHttp, bobTcp] = agents as [Agent, Agent, Agent, Agent, Agent];
  let markers = 0;
  /** Each agent's channel data up to a marker sent to all: per-session order makes this exact. */
  const delivered = async (): Promise<unknown[][]> => {
    const marker = `marker-${++markers}`;
    assert.equal(await send(bobTcp, { target: 'all', kind: 'channel', data: marker }), agents.length);
    await waitFor(() => agents.every((agent) => agent.inbox.some((n) => n.params?.data === marker)));
    return agents.map((agent) => takeUntil(agent, marker));
  };

  it('names each session after its API key, on both transports', () => {
    for (const agent of agents) assert.equal(gateway.sessions.get(agent.sessionId)?.identity, agent.name, agent.sessionId);
  });

  it('announces the channels to /mcp and TCP clients', () => {
    for (const agent of agents) assert.deepEqual(agent.client.getServerCapabilities()?.experimental?.['claude/channel'], CHANNELS);
  });

  it("reaches exactly the sessions of one key's identity, across transports", async () => {
    assert.equal(await send(bobHttp, { target: { identity: 'alice' }, kind: 'channel', data: 'to alice' }), 3);
    assert.deepEqual(await delivered(), [['to alice'], ['to alice'], ['to alice'], [], []]);
    assert.equal(await send(aliceTcp, { target: { identity: 'bob' }, kind: 'channel', data: 'to bob' }), 2);
    assert.deepEqual(await delivered(), [[], [], [], ['to bob'], ['to bob']]);
  });

  it('reaches one session by id: the tool caller\'s own, over /mcp', async () => {
    const result = await aliceHttp2.client.callTool({ name: 'notify_self', arguments: { text: 'mine' } });
    assert.equal((result.structuredContent as { sessionId: string }).sessionId, aliceHttp2.sessionId);
    assert.deepEqual(await delivered(), [[], [{ text: 'mine' }], [], [], []]);
  });

  it('sends log messages at the level each session asked for', async () => {
    await bobHttp.client.setLoggingLevel('error');
    await aliceTcp.client.setLoggingLevel('error');
    assert.equal(await send(aliceHttp1, { target: 'all', kind: 'log', level: 'warning', data: 'warn' }), 3);
    assert.equal(await send(aliceHttp1, { target: 'all', kind: 'log', level: 'alert', data: 'alert' }), 5);
    assert.deepEqual(await delivered(), [['warn', 'alert'], ['warn', 'alert'], ['alert'], ['alert'], ['warn', 'alert']]);
  });

  it('tells every session when a tool is added or removed at run time', async () => {
    const changes = () => agents.map((agent) => agent.inbox.filter((n) => n.method === 'notifications/tools/list_changed').length);
    const before = changes();
    await bobTcp.client.callTool({ name: 'notify_add_tool', arguments: { name: 'live_e2e' } });
    await waitFor(() => changes().every((n, i) => n === before[i]! + 1));
    assert.ok((await aliceHttp1.client.listTools()).tools.some((t) => t.name === 'live_e2e'));
    await aliceHttp1.client.callTool({ name: 'notify_remove_tool', arguments: { name: 'live_e2e' } });
    await waitFor(() => changes().every((n, i) => n === before[i]! + 2));
    assert.equal((await bobTcp.client.listTools()).tools.some((t) => t.name === 'live_e2e'), false);
  });
});

describe('notifications over --stdio (the real binary)', () => {
  const configFor = (dir: string, extra: Record<string, unknown>) =>
    writeConfig(dir, {
      dataDir: join(dir, 'data'),
      logLevel: 'silent',
      registries: [NOTIFY_REGISTRY],
      plugins: { notify: {} },
      transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { enabled: false } },
      ...extra,
    });

  async function stdioAgent(config: string, cwd: string, withRoots: boolean): Promise<Agent> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, '--stdio', '--config', config], cwd, stderr: 'pipe' });
    const client = new Client({ name: 'stdio-agent', version: '1.0.0' }, withRoots ? { capabilities: { roots: {} } } : {});
    if (withRoots) client.setRequestHandler('roots/list', () => ({ roots: [{ uri: pathToFileURL(cwd).href }] }));
    const inbox = recordNotifications(client);
    await client.connect(transport);
    after(() => client.close());
    return { name: 'stdio-agent', client, inbox, sessionId: await sessionIdOf(client) };
  }

  async function exercise(agent: Agent): Promise<void> {
    assert.deepEqual(agent.client.getServerCapabilities()?.experimental?.['claude/channel'], CHANNELS);
    assert.equal(await send(agent, { target: { identity: 'stdio-agent' }, kind: 'channel', data: { hi: 1 } }), 1);
    await agent.client.setLoggingLevel('error');
    assert.equal(await send(agent, { target: 'all', kind: 'log', level: 'warning', data: 'quiet' }), 0);
    assert.equal(await send(agent, { target: { session: agent.sessionId }, kind: 'log', level: 'critical', data: 'loud' }), 1);
    await waitFor(() => agent.inbox.length >= 3);
    assert.deepEqual(agent.inbox.filter((n) => n.method !== 'notifications/tools/list_changed'), [
      { method: CHANNEL, params: { channel: 'notify.replies', data: { text: 'whoami' } } },
      { method: CHANNEL, params: { channel: 'notify.messages', data: { hi: 1 } } },
      { method: 'notifications/message', params: { level: 'critical', logger: 'notify', data: 'loud' } },
    ]);
  }

  it('with the workspace in the config: identity from the client name, channels, levels', async () => {
    const dir = tempDir();
    await exercise(await stdioAgent(configFor(dir, { workspace: dir }), dir, false));
  });

  it("with the workspace from the client's roots, whose initialize is answered before the plugins load", async () => {
    const dir = tempDir();
    await exercise(await stdioAgent(configFor(dir, {}), dir, true));
  });
});
