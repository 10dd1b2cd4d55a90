import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../core/gateway/gateway.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import { memoryClient, resultJson, testConfigObject } from '../../helpers.js';
import type { FreshStore } from '../../support/store-backends.js';

export interface RagGateway {
  readonly gateway: Gateway;
  readonly client: Client;
  readonly workspace: string;
  /** Calls a tool over MCP; resolves with its JSON (the error's `{code, message}` when it failed). */
  call(name: string, args: Record<string, unknown>): Promise<any>;
  /** Calls a tool over REST: `{status, body}`. */
  rest(name: string, args: Record<string, unknown>): Promise<{ status: number; body: any }>;
}

/**
 * A gateway with the knowledge plugin on `target`'s store and a workspace of its own (real
 * path), closed when the test ends. `plugins` adds others (embeddings).
 */
export async function bootRag(
  t: { after(fn: () => unknown): void },
  target: FreshStore,
  options: { knowledge?: Record<string, unknown>; plugins?: Record<string, unknown>; workspace?: string; extra?: Record<string, unknown> } = {},
): Promise<RagGateway> {
  const dir = join(target.dataDir, '..');
  const workspace = options.workspace ?? join(dir, `ws-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(workspace, { recursive: true });
  const raw = testConfigObject(dir, {
    dataDir: target.dataDir,
    storage: target.storage,
    workspace,
    plugins: { echo: { enabled: false }, knowledge: { config: options.knowledge ?? {} }, ...(options.plugins ?? {}) },
    ...(options.extra ?? {}),
  });
  const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }) });
  t.after(() => gateway.close());
  const client = await memoryClient(gateway);
  const app = await createHttpApp(gateway);
  t.after(() => app.close());
  return {
    gateway,
    client,
    workspace: realpathSync(workspace),
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const json = resultJson(result);
      if (!result.isError) assertSame(json, result.structuredContent);
      return result.isError ? { isError: true, ...json } : json;
    },
    async rest(name, args) {
      const reply = await app.inject({ method: 'POST', url: `/tools/${name}`, payload: args });
      return { status: reply.statusCode, body: reply.json() };
    },
  };
}

function assertSame(text: unknown, structured: unknown): void {
  if (JSON.stringify(text) !== JSON.stringify(structured)) throw new Error(`structuredContent differs from the text: ${JSON.stringify(structured)}`);
}

/** Writes files under `root`: path → content. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export const GUIDE_MD = [
  '# Guide',
  '',
  'The gateway serves tools to agents.',
  '',
  '## Install',
  '',
  'Run npm install in the gateway folder, then npm start.',
  '',
  '```sh',
  '# a comment in a fence, not a heading',
  'npm install',
  '```',
  '',
  '## Configure',
  '',
  'Edit gateway.config.yaml to enable plugins such as knowledge.',
  '',
].join('\n');
