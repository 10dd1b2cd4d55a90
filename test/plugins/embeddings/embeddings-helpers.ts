import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { resolveConfig } from '../../../core/config/config.js';
import { createGateway, type Gateway } from '../../../core/gateway/gateway.js';
import { createHttpApp } from '../../../core/http/http-server.js';
import type { Logger } from '../../../core/lib/logger.js';
import { memoryClient, tempDir, testConfigObject, TESTS } from '../../helpers.js';
import type { FreshStore } from '../../support/store-backends.js';

export { startEmbeddingsServer, embedText, type EmbeddingsServer } from '../../fixtures/embeddings-server/server.js';

/** The `similar` fixture plugin: ctx.api('embeddings') from another plugin. */
export const SIMILAR_REGISTRY = join(TESTS, 'fixtures', 'similar-plugin', 'registry');

/** Breakers that open after two failures of two calls, and stay open for the test. */
export const QUICK_BREAKERS = { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 };

export interface Booted {
  readonly gateway: Gateway;
  readonly client: Client;
  /** One request to the HTTP face (REST, /health, /metrics) without a listener. */
  rest(method: 'GET' | 'POST', url: string, body?: unknown): Promise<{ status: number; body: any; text: string }>;
  /** The embeddings plugin's status (`plugins[].status` of gateway_status). */
  status(): { ok: boolean; detail: Record<string, any> };
}

export interface BootOptions {
  /** plugins.embeddings.config */
  readonly config?: Record<string, unknown>;
  /** Another store than a fresh SQLite one in a temporary folder (the same one twice: a restart). */
  readonly target?: FreshStore;
  /** More keys of the gateway config (plugins, registries, breakers). */
  readonly extra?: Record<string, unknown>;
  readonly log?: Logger;
}

/** A gateway with the embeddings plugin, closed when the test (or file) ends. */
export async function bootEmbeddings(t: { after(fn: () => unknown): void }, options: BootOptions = {}): Promise<Booted> {
  const dir = options.target ? join(options.target.dataDir, '..') : tempDir('mcpgw-emb-');
  const { plugins, ...extra } = options.extra ?? {};
  const raw = testConfigObject(dir, {
    ...(options.target ? { dataDir: options.target.dataDir, storage: options.target.storage } : {}),
    breakers: QUICK_BREAKERS,
    ...extra,
    plugins: { embeddings: { config: options.config ?? {} }, ...(plugins as Record<string, unknown> | undefined) },
  });
  const gateway = await createGateway({ config: resolveConfig(raw, { env: process.env, cwd: dir }), ...(options.log ? { log: options.log } : {}) });
  t.after(() => gateway.close());
  const client = await memoryClient(gateway);
  let app: ReturnType<typeof createHttpApp> | undefined;
  t.after(async () => (app ? (await app).close() : undefined));
  return {
    gateway,
    client,
    async rest(method, url, body) {
      app ??= createHttpApp(gateway);
      const answer = await (await app).inject({ method, url, ...(body === undefined ? {} : { payload: body as object }) });
      const text = answer.body;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: answer.statusCode, body: parsed, text };
    },
    status() {
      const plugin = gateway.status().plugins.find((p) => p.name === 'embeddings');
      if (!plugin?.status) throw new Error('the embeddings plugin reported no status');
      return plugin.status as { ok: boolean; detail: Record<string, any> };
    },
  };
}

/** The provider config for `server`: openai at `${url}/v1`, ollama at `url`. */
export function providerConfig(server: { url: string; dimensions: number }, provider: 'openai' | 'ollama' = 'openai', more: Record<string, unknown> = {}) {
  return {
    provider,
    url: provider === 'openai' ? `${server.url}/v1` : server.url,
    model: provider === 'openai' ? 'text-embedding-3-small' : 'nomic-embed-text',
    dimensions: server.dimensions,
    apiKeyEnv: '',
    ...more,
  };
}

/** A logger at debug level whose lines the test reads. */
export function capturedLog(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { log: pino({ level: 'debug' }, sink) as unknown as Logger, text: () => lines.join('') };
}
