import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { memoryClient, startGateway, tempDir, toolCalls } from '../../helpers.js';
import type { FreshStore } from '../../support/store-backends.js';

export interface BrainGateway {
  readonly gateway: Gateway;
  readonly client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail; answers its `{code, message, details}`. */
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: any }>;
}

/** A gateway with the brain plugin (and whatever else `overrides.plugins` enables) on `store`, or a SQLite store of its own. */
export async function brainGateway(overrides: Record<string, unknown> = {}, store?: FreshStore, clientName = 'test-client'): Promise<BrainGateway> {
  const where = store ? { dataDir: store.dataDir, storage: store.storage } : { dataDir: join(tempDir(), 'data') };
  const gateway = await startGateway({ plugins: { brain: {} }, ...where, ...overrides });
  const client = await memoryClient(gateway, clientName);
  const { call, fail } = toolCalls(client);
  return { gateway, client, call, fail };
}
