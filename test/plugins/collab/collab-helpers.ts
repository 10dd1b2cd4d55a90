import { after } from 'node:test';
import { startTestGateway, type TestGateway, type TestSession, type TestStore } from '../../../core/testing.js';
import { httpRequest } from '../../helpers.js';

/** A collab test's MCP session: `client`, `call`, and `fail` (a call that must fail: its `{code, message, details}`). */
export type CollabSession = TestSession;

/** A gateway with collab (@mcp-gateway/core/testing's TestGateway); `call` and `fail` go through its first session. */
export type CollabGateway = TestGateway;

/** What the tests name their sessions unless they say: the identity two unnamed sessions share. */
const CLIENT_NAME = 'test-client';

/**
 * A gateway with the collab plugin (and process, which it requires) on `store` (or a SQLite
 * store of its own), and one session. `overrides`: other config keys, `plugins` merged in,
 * `workspace` the tools' folder, `keys` API keys (see startTestGateway). It closes after the
 * suite or test that called this.
 */
export async function collabGateway(overrides: Record<string, unknown> = {}, store?: TestStore): Promise<CollabGateway> {
  const { plugins, workspace, keys, ...config } = overrides as { plugins?: Record<string, object>; workspace?: string; keys?: TestGatewayKeys };
  const gateway = await startTestGateway({
    registries: [],
    builtinRegistry: true,
    plugins: { process: {}, collab: {}, ...plugins },
    config,
    clientName: CLIENT_NAME,
    ...(workspace === undefined ? {} : { workspace }),
    ...(keys === undefined ? {} : { keys }),
    ...(store === undefined ? {} : { store }),
  });
  after(() => gateway.close());
  const session = (name = CLIENT_NAME) => gateway.session(name);
  return { ...gateway, session };
}

type TestGatewayKeys = NonNullable<Parameters<typeof startTestGateway>[0]['keys']>;

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
 * listener closes with the gateway.
 */
export async function restCollabGateway() {
  const c = await collabGateway({
    keys: [
      { name: 'ci', scopes: ['*'] },
      { name: 'other', scopes: ['*'] },
    ],
    plugins: { collab: { config: { keyAgents: { ci: 'builder' } } } },
  });
  const { http } = await c.listen({ http: true });
  const rest = async (key: string, tool: string, args: Record<string, unknown>) => {
    const answer = await httpRequest(http!.port, { method: 'POST', url: `/tools/${tool}`, headers: { authorization: `Bearer ${key}` }, payload: args });
    return { status: answer.statusCode, ...answer.json() };
  };
  return { c, owner: c.ownerKey!, ci: { key: c.keys.ci! }, other: { key: c.keys.other! }, rest, base: `http://127.0.0.1:${http!.port}` };
}
