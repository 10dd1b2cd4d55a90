import { after } from 'node:test';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { createApiKey } from '../../../core/auth/api-keys.js';
import { listenHttp } from '../../../core/http/http-server.js';
import { httpRequest, memoryClient, startGateway, tempDir, toolCalls } from '../../helpers.js';
import type { FreshStore } from '../../support/store-backends.js';

export interface CollabSession {
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail; answers its `{code, message, details}`. */
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: any }>;
}

export interface CollabGateway extends CollabSession {
  readonly gateway: Gateway;
  /** Another MCP session on the same gateway (in memory), e.g. a second agent. */
  session(clientName?: string): Promise<CollabSession>;
}

/** A gateway with the collab plugin on `store` (or a SQLite store of its own), and one session. */
export async function collabGateway(overrides: Record<string, unknown> = {}, store?: FreshStore): Promise<CollabGateway> {
  const where = store ? { dataDir: store.dataDir, storage: store.storage } : { dataDir: join(tempDir(), 'data') };
  const { plugins, ...rest } = overrides as { plugins?: Record<string, unknown> };
  const gateway = await startGateway({ plugins: { process: {}, collab: {}, ...plugins }, ...where, ...rest });
  const session = async (clientName = 'test-client'): Promise<CollabSession> => {
    const client = await memoryClient(gateway, clientName);
    return { client, ...toolCalls(client) };
  };
  return { gateway, session, ...(await session()) };
}

/** A gateway with alice joined on its first session and bob on a second. */
export async function aliceAndBob(overrides: Record<string, unknown> = {}): Promise<{ c: CollabGateway; alice: CollabGateway; bob: CollabSession }> {
  const c = await collabGateway(overrides);
  await c.call('collab_join', { name: 'alice' });
  const bob = await c.session('bob-client');
  await bob.call('collab_join', { name: 'bob' });
  return { c, alice: c, bob };
}

/**
 * A collab gateway on HTTP with keys on: the owner key, `ci` pinned to the agent `builder`
 * (keyAgents) and `other`, unpinned; `rest` calls a tool over REST with one of them. Its
 * listener closes after the suite that called this.
 */
export async function restCollabGateway() {
  const ci = createApiKey();
  const other = createApiKey();
  const c = await collabGateway({
    auth: 'key',
    apiKeys: [
      { name: 'ci', hash: ci.hash, scopes: ['*'] },
      { name: 'other', hash: other.hash, scopes: ['*'] },
    ],
    transports: { tcp: { enabled: false }, unix: { enabled: false }, http: { port: 0 } },
    plugins: { collab: { config: { keyAgents: { ci: 'builder' } } } },
  });
  const listener = await listenHttp(c.gateway);
  after(() => listener.close());
  const rest = async (key: string, tool: string, args: Record<string, unknown>) => {
    const answer = await httpRequest(listener.address.port, { method: 'POST', url: `/tools/${tool}`, headers: { authorization: `Bearer ${key}` }, payload: args });
    return { status: answer.statusCode, ...answer.json() };
  };
  return { c, owner: c.gateway.ownerKey!.key, ci, other, rest, base: `http://127.0.0.1:${listener.address.port}` };
}
