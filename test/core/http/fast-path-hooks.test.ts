import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createHttpApp } from '../../../core/http/http-server.js';
import { MCP_MIRRORED_HOOKS } from '../../../core/http/mcp-http.js';
import { MIRRORED_HOOKS } from '../../../core/http/rest-calls.js';
import { startGateway } from '../../helpers.js';

/**
 * REST tool calls and the MCP requests of a session have two paths: one ahead of fastify (the
 * hot path) and fastify's routes. They stay one behaviour only while every fastify hook on
 * those routes is mirrored by the fast path; this fails when a hook is added there that
 * MIRRORED_HOOKS (MCP_MIRRORED_HOOKS) does not list.
 */
describe('the fast paths mirror every fastify hook of their routes (POST /tools/<name>, POST /mcp)', () => {
  it('the hooks of the per-tool and the catch-all routes are exactly the mirrored ones', async () => {
    const gateway = await startGateway();
    const app = await createHttpApp(gateway);
    after(() => app.close());
    const tree = app.printRoutes({ includeHooks: true, commonPrefix: false });
    for (const route of ['/echo (POST)', '/gateway_status (POST)', '/:name (GET, POST)']) {
      const hooks = hooksOf(tree, route);
      assert.ok(hooks, `route ${route} not found in:\n${tree}`);
      assert.deepEqual(
        hooks,
        MIRRORED_HOOKS,
        `POST /tools${route.split(' ')[0]} has hooks the fast path (core/http/rest-calls.ts) does not mirror: do what the hook does there too, then list it in MIRRORED_HOOKS`,
      );
    }
  });

  it('the hooks of /mcp are exactly those the MCP fast path mirrors', async () => {
    const gateway = await startGateway();
    const app = await createHttpApp(gateway);
    after(() => app.close());
    const tree = app.printRoutes({ includeHooks: true, commonPrefix: false });
    const hooks = hooksOf(tree, '/mcp (POST, GET, DELETE)');
    assert.ok(hooks, `route /mcp not found in:\n${tree}`);
    assert.deepEqual(hooks, MCP_MIRRORED_HOOKS, 'POST /mcp has hooks the fast path (McpRoutes.post in core/http/mcp-http.ts) does not mirror: do what the hook does there too, then list it in MCP_MIRRORED_HOOKS');
  });
});

/** The hooks printed under `route` (a line of fastify's route tree), by hook, function names without "()". */
function hooksOf(tree: string, route: string): Record<string, string[]> | undefined {
  const lines = tree.split('\n');
  const at = lines.findIndex((line) => line.trimEnd().endsWith(route));
  if (at === -1) return undefined;
  const hooks: Record<string, string[]> = {};
  for (const line of lines.slice(at + 1)) {
    const hook = /•\s+\((\w+)\)\s+(\[.*\])\s*$/.exec(line);
    if (!hook) break;
    hooks[hook[1]!] = (JSON.parse(hook[2]!) as string[]).map((name) => name.replace(/\(\)$/, ''));
  }
  return hooks;
}
