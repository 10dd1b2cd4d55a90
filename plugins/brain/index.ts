// The brain plugin: long-term memories for agents — in this gateway's shared store, or in a
// team's shared brain on another server. README.md has the tools and the config.
import { definePlugin } from '../../core/index.js';
import type {} from '../embeddings/api.js';
import type { Brain } from './brain.js';
import { configSchema } from './config.js';
import { brainErrors } from './errors.js';
import { LocalBrain } from './local/local-brain.js';
import { MemoryIndex } from './local/memory-index.js';
import { migrations } from './local/schema.js';
import { registerBrainCommands } from './commands.js';
import { contentCheck, registerBrainTools } from './tools/register.js';
import { MemoryVectors } from './vectors.js';

export type { BrainConfig } from './config.js';

export default definePlugin({
  name: 'brain',
  version: '0.1.0',
  description: 'Long-term memories for agents: remember, recall, forget, list — in the shared store, or in a shared brain on another server.',
  configSchema,
  errors: brainErrors,
  uses: ['embeddings'],
  async setup(ctx) {
    let brain: Brain;
    if (ctx.config.backend === 'local') {
      await ctx.store.migrate(migrations);
      const vectors = new MemoryVectors(ctx.api('embeddings'), ctx.log);
      const index = await MemoryIndex.open(ctx.store, vectors, ctx.log);
      const { lexicalWeight, vectorWeight } = ctx.config.recall;
      brain = new LocalBrain({ store: ctx.store, index, vectors, error: (code, message, details) => ctx.error(code, message, details), weights: { lexical: lexicalWeight, vector: vectorWeight } });
      // Level the index with the table in the background: a restart after a crash, a new model.
      void index.catchUp(ctx.signal).catch((err: unknown) => ctx.log.warn({ err }, 'brain: catching the index up failed'));
    } else {
      throw ctx.error('CONFIG_INVALID', 'plugins.brain.config.backend: remote is not available yet');
    }
    const checkContent = contentCheck(ctx);
    registerBrainTools(ctx, brain, checkContent);
    registerBrainCommands(ctx, brain, checkContent);
  },
});
