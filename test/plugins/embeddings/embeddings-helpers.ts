import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/client';
import { startTestGateway, type TestGateway, type TestPluginSettings, type TestStore } from '../../../core/testing.js';
import { TESTS } from '../../helpers.js';

export { startEmbeddingsServer, embedText, type EmbeddingsServer } from '../../fixtures/embeddings-server/server.js';

/** The `similar` fixture plugin: ctx.api('embeddings') from another plugin. */
export const SIMILAR_REGISTRY = join(TESTS, 'fixtures', 'similar-plugin', 'registry');

/** Breakers that open after two failures of two calls, and stay open for the test. */
export const QUICK_BREAKERS = { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 60_000 };

export interface Booted {
  /** The gateway (@mcp-gateway/core/testing's TestGateway). */
  readonly gateway: TestGateway;
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
  readonly target?: TestStore;
  /** More keys of the gateway config (plugins, registries, breakers). */
  readonly extra?: Record<string, unknown>;
  /** Where the log lines go, at debug level (capturedLog). */
  readonly log?: Writable;
}

/** A gateway with the embeddings plugin, closed when the test (or file) ends. */
export async function bootEmbeddings(t: { after(fn: () => unknown): void }, options: BootOptions = {}): Promise<Booted> {
  const { plugins, registries, ...config } = (options.extra ?? {}) as { plugins?: Record<string, TestPluginSettings>; registries?: string[] };
  const gateway = await startTestGateway({
    registries: registries ?? [],
    builtinRegistry: true,
    plugins: { embeddings: { config: options.config ?? {} }, ...plugins },
    config: { breakers: QUICK_BREAKERS, ...config },
    clientName: 'test-client',
    ...(options.target ? { store: options.target } : {}),
    ...(options.log ? { logLevel: 'debug' as const, logTo: options.log } : {}),
  });
  t.after(() => gateway.close());
  return {
    gateway,
    client: gateway.client,
    async rest(method, url, body) {
      const { status, body: parsed, text } = await gateway.rest(method, url, body);
      return { status, body: parsed, text };
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

/** A stream for the gateway's log lines (bootEmbeddings' `log`), and what it holds. */
export function capturedLog(): { log: Writable; text: () => string } {
  const lines: string[] = [];
  const log = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { log, text: () => lines.join('') };
}
