// The embeddings plugin: text to vectors through a configured provider (an OpenAI-compatible
// endpoint or Ollama), cached in the shared store, behind the `embeddings:provider` breaker.
// Knowledge and brain reach it through ctx.api('embeddings'); README.md has the config.
import { definePlugin } from '@mcp-gateway/core';
import type { EmbeddingsApi } from './api.js';
import { declared } from './declaration.js';
import { Embedder, type ProviderParts } from './embedder.js';
import type { RaiseError } from './declaration.js';
import { isCallerError, ProviderClient } from './provider-client.js';
import { providerSettings } from './settings.js';
import { statusReport } from './status.js';
import { registerEmbedTool } from './tools/embed.js';
import { tryEmbed } from './try-embed.js';
import { migrations, VectorCache } from './vector-cache.js';

export type { EmbeddingsConfig } from './config.js';
export type { EmbeddingsApi } from './api.js';

export default definePlugin({
  ...declared,
  async setup(ctx): Promise<EmbeddingsApi> {
    const error: RaiseError = (code, message, details) => ctx.error(code, message, details);
    const settings = providerSettings(ctx.config, process.env) ?? undefined;
    await ctx.store.migrate(migrations);

    let provider: ProviderParts | undefined;
    if (settings) {
      const breaker = ctx.breaker('provider', { timeoutMs: ctx.config.timeoutMs, isCallerError });
      const cache = ctx.config.cache.enabled ? new VectorCache(ctx.store, ctx.config.cache.maxEntries, ctx.log) : undefined;
      await cache?.open();
      provider = { settings, client: new ProviderClient(settings, breaker, error), cache };
      if (settings.apiKeyEnv && !settings.apiKey) {
        ctx.log.warn({ apiKeyEnv: settings.apiKeyEnv }, 'the API key variable is not set: embedding requests carry no Authorization header');
      }
      ctx.log.info({ provider: settings.provider, model: settings.model, dimensions: settings.dimensions, url: settings.shownUrl, space: settings.space }, 'embeddings ready');
    }
    const { batchSize, maxTexts, maxInputChars } = ctx.config;
    const embedder = new Embedder(provider, { batchSize, maxTexts, maxInputChars }, error);
    ctx.reportStatus(() => statusReport({ embedder, settings, client: provider?.client, cache: provider?.cache }));
    registerEmbedTool({ ctx, embedder, settings });

    return {
      provider: settings?.provider ?? 'none',
      model: settings?.model ?? null,
      dimensions: settings?.dimensions ?? null,
      space: settings?.space ?? null,
      embed: async (texts, options) => (await embedder.embed(texts, options)).vectors,
      tryEmbed: (texts, options) => tryEmbed(embedder, ctx.log, texts, options),
      readiness: () => embedder.readiness(),
    };
  },
});
