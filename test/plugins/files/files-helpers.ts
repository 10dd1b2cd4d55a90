import assert from 'node:assert/strict';
import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { after } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { startTestGateway, type TestGateway, type TestGatewayOptions } from '../../../core/testing.js';
import { resultJson, tempDir } from '../../helpers.js';

/**
 * A gateway with the files plugin (`config` is its config section) working in `base`, its
 * data in `base/data` (which the sandbox tests leave out of their snapshots), on
 * @mcp-gateway/core/testing. `more`: other keys of gateway.config.yaml. It closes when the
 * test file ends.
 */
export async function filesGateway(
  base: string,
  config: Record<string, unknown>,
  more: Record<string, unknown> = {},
  options: Partial<TestGatewayOptions> = {},
): Promise<TestGateway> {
  const gateway = await startTestGateway({
    registries: [],
    builtinRegistry: true,
    plugins: { files: { config } },
    workspace: base,
    store: { storage: { shared: 'sqlite' }, dataDir: join(base, 'data') },
    config: more,
    clientName: 'test-client',
    ...options,
  });
  after(() => gateway.close());
  return gateway;
}

/** A real temporary directory by its real path (the sandbox compares real paths). */
export function realTempDir(prefix?: string): string {
  return realpathSync(tempDir(prefix));
}

export interface ToolError {
  code: string;
  message: string;
  details?: unknown;
}

/** Calls a tool and returns its JSON result; fails the test if the call failed. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  assert.notEqual(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)} failed: ${JSON.stringify(result.content).slice(0, 400)}`);
  return resultJson(result);
}

/** Calls a tool that must fail with `code`; returns the error body. */
export async function fails(client: Client, name: string, args: Record<string, unknown>, code: string): Promise<ToolError> {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 200)} should fail with ${code}, got ${JSON.stringify(result.content).slice(0, 400)}`);
  const body = resultJson(result) as ToolError;
  assert.equal(body.code, code, body.message);
  assert.equal(typeof body.message, 'string');
  return body;
}

/**
 * Every entry under `dir` (not following symlinks): type, mode, and content or link target.
 * Two equal snapshots mean nothing was created, changed or deleted there.
 */
export function snapshot(dir: string, skip: readonly string[] = []): Record<string, string> {
  const entries: Record<string, string> = {};
  const visit = (path: string, rel: string) => {
    for (const name of readdirSync(path).sort()) {
      if (rel === '' && skip.includes(name)) continue;
      const full = join(path, name);
      const key = rel === '' ? name : `${rel}/${name}`;
      const info = lstatSync(full);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) entries[key] = `link ${mode} -> ${readlinkSync(full)}`;
      else if (info.isDirectory()) {
        entries[key] = `dir ${mode}`;
        visit(full, key);
      } else entries[key] = `file ${mode} ${info.mtimeMs} ${readFileSync(full).toString('base64')}`;
    }
  };
  visit(dir, '');
  return entries;
}

/** A valid 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
