import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { memoryClient, startGateway, tempDir, toolCalls } from '../../helpers.js';
import type { FreshStore } from '../../support/store-backends.js';

/** Writes files into the workspace, making folders as needed. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export const SOURCE = {
  'src/errors.ts': [
    '// One table of error codes for every transport.',
    'export const ERRORS = {',
    "  NOT_FOUND: { status: 404, message: 'no such thing' },",
    "  TIMEOUT: { status: 504, message: 'too slow' },",
    '};',
    '',
    'export function statusOf(code: string): number {',
    '  return ERRORS[code]?.status ?? 500;',
    '}',
  ].join('\n'),
  'src/retry.ts': ['// Retries with exponential backoff and jitter.', 'export async function retry(fn, attempts = 3) {', '  for (let i = 0; i < attempts; i++) {', '    try { return await fn(); } catch {}', '  }', '}'].join('\n'),
  'docs/deploy.md': '# Deploying\n\nRoll back a deploy with `deploy rollback`; the previous release stays warm for ten minutes.\n',
};

export interface KnowledgeGateway {
  readonly gateway: Gateway;
  readonly client: Client;
  readonly workspace: string;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail; answers its `{code, message, details}`. */
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: any }>;
}

/**
 * A gateway with the knowledge plugin (and whatever else `plugins` enables) over a seeded
 * workspace, on `store` (a fresh SQLite or PostgreSQL store) or a SQLite store of its own.
 */
export async function knowledgeGateway(overrides: Record<string, unknown> = {}, store?: FreshStore, workspace = tempDir()): Promise<KnowledgeGateway> {
  writeFiles(workspace, SOURCE);
  const where = store ? { dataDir: store.dataDir, storage: store.storage } : { dataDir: join(tempDir(), 'data') };
  const gateway = await startGateway({ plugins: { knowledge: {} }, workspace, ...where, ...overrides }, workspace);
  const client = await memoryClient(gateway);
  const { call, fail } = toolCalls(client);
  return { gateway, client, workspace, call, fail };
}
