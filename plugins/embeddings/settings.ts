import { createHash } from 'node:crypto';
import { GatewayError } from '@mcp-gateway/core';
import type { EmbeddingPurpose } from './api.js';
import type { EmbeddingsConfig } from './config.js';

/** A provider that makes vectors, with everything needed to ask it. */
export interface ProviderSettings {
  readonly provider: 'openai' | 'ollama';
  /** Where requests go: `<url>/embeddings` (openai) or `<url>/api/embed` (ollama), the URL's query kept. */
  readonly endpoint: string;
  /** The base URL with no credentials, query or fragment: what status, logs and errors show. */
  readonly shownUrl: string;
  readonly model: string;
  readonly dimensions: number;
  readonly sendDimensions: boolean;
  /** The variable the key is read from, for messages; null when no key is sent. */
  readonly apiKeyEnv: string | null;
  /** The key itself, or undefined. Never shown anywhere. */
  readonly apiKey: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly prefixes: Readonly<Record<EmbeddingPurpose, string>>;
  readonly space: string;
}

const DEFAULT_URLS = { openai: 'https://api.openai.com/v1', ollama: 'http://127.0.0.1:11434' } as const;
const MODEL_HINTS = { openai: 'text-embedding-3-small', ollama: 'nomic-embed-text' } as const;
const WHERE = 'plugins.embeddings.config';

/**
 * The provider the config describes, or null for `none`. Throws CONFIG_INVALID for what the
 * schema cannot say (model and dimensions are required only with a provider). `env` is read
 * once, here: the key is not kept in the config, which `gateway_status` may show.
 */
export function providerSettings(config: EmbeddingsConfig, env: NodeJS.ProcessEnv): ProviderSettings | null {
  if (config.provider === 'none') return null;
  const provider = config.provider;
  if (config.model === undefined) {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}: provider ${provider} needs a model, e.g. model: ${MODEL_HINTS[provider]}.`);
  }
  if (config.dimensions === undefined) {
    throw new GatewayError(
      'CONFIG_INVALID',
      `${WHERE}: provider ${provider} needs dimensions, the length of the model's vectors (nomic-embed-text 768, text-embedding-3-small 1536, all-minilm 384).`,
    );
  }
  let base: URL;
  try {
    base = new URL(config.url ?? DEFAULT_URLS[provider]);
  } catch {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.url: not a URL (http://host:port/path).`);
  }
  // fetch refuses such a URL; saying so here beats a failure at the first request.
  if (base.username || base.password) {
    throw new GatewayError('CONFIG_INVALID', `${WHERE}.url: user and password in the URL cannot be sent (fetch refuses them); give the key with apiKeyEnv, or as a header in headers.`);
  }
  // OPENAI_API_KEY goes only to OpenAI itself by default: a key must never reach another server unasked.
  const apiKeyEnv = (config.apiKeyEnv ?? (provider === 'openai' && config.url === undefined ? 'OPENAI_API_KEY' : '')) || null;
  const prefixes = { query: config.queryPrefix, document: config.documentPrefix };
  return {
    provider,
    endpoint: endpoint(base, provider === 'openai' ? '/embeddings' : '/api/embed'),
    shownUrl: withoutSecrets(base),
    model: config.model,
    dimensions: config.dimensions,
    sendDimensions: config.sendDimensions,
    apiKeyEnv,
    apiKey: apiKeyEnv ? env[apiKeyEnv] || undefined : undefined,
    headers: config.headers,
    prefixes,
    space: vectorSpace(provider, config.model, config.dimensions, prefixes),
  };
}

/**
 * `e` and 10 hex digits of a hash of what decides the vectors: the provider, model and length,
 * and the prefixes (another prefix gives other vectors for the same text). The URL is left
 * out: the same model served elsewhere makes the same vectors.
 */
export function vectorSpace(provider: string, model: string, dimensions: number, prefixes: Readonly<Record<EmbeddingPurpose, string>>): string {
  const identity = JSON.stringify([provider, model, dimensions, prefixes.document, prefixes.query]);
  return `e${createHash('sha256').update(identity).digest('hex').slice(0, 10)}`;
}

function endpoint(base: URL, path: string): string {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  return url.toString();
}

/** `url` without query and fragment: a key may sit in either. */
function withoutSecrets(url: URL): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString().replace(/\/+$/, '');
}
