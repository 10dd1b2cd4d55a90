// The brain plugin: long-term memories for agents — in this gateway's shared store, or in a
// team's shared brain on another server. README.md has the tools and the config.
import { definePlugin, OptionalVectors } from '@mcp-gateway/core';
import type {} from '@mcp-gateway/plugin-embeddings/api';
import type { Brain } from './brain.js';
import { registerBrainCommands } from './commands.js';
import { declared, type BrainContext, type RaiseError } from './declaration.js';
import { LocalBrain } from './local/local-brain.js';
import { MemoryIndex } from './local/memory-index.js';
import { migrations } from './local/schema.js';
import { OfflineBrain } from './offline/offline-brain.js';
import { offlineMigrations, Outbox, WrittenMemories } from './offline/outbox.js';
import { createRemoteBrain, isCallerError } from './remote/index.js';
import { contentCheck, registerBrainTools } from './tools/register.js';

export type { BrainConfig } from './config.js';

export default definePlugin({
  ...declared,
  async setup(ctx) {
    const brain = ctx.config.backend === 'local' ? await localBrain(ctx) : remoteBrain(ctx);
    const checkContent = contentCheck(ctx);
    registerBrainTools(ctx, brain, checkContent);
    registerBrainCommands(ctx, brain, checkContent);
  },
});

const raise = (ctx: BrainContext): RaiseError => (code, message, details) => ctx.error(code, message, details);

async function localBrain(ctx: BrainContext): Promise<Brain> {
  await ctx.store.migrate(migrations);
  const vectors = new OptionalVectors(ctx.api('embeddings'));
  const index = await MemoryIndex.open(ctx.store, vectors, ctx.log);
  const { lexicalWeight, vectorWeight } = ctx.config.recall;
  // Level the index with the table in the background (a restart after a crash, a new model);
  // the counts are taken now, before any tool can write.
  const drift = await index.drift();
  void index.catchUp(drift, ctx.signal).catch((err: unknown) => ctx.log.warn({ err }, 'brain: catching the index up failed'));
  ctx.reportStatus(() => ({ ok: true, detail: { backend: 'local', vectorSpace: vectors.space, vectorEngine: index.vectorEngine } }));
  return new LocalBrain({ store: ctx.store, index, vectors, error: raise(ctx), weights: { lexical: lexicalWeight, vector: vectorWeight } });
}

function remoteBrain(ctx: BrainContext): Brain {
  const remote = ctx.config.remote;
  if (remote.queueWhenDown && remote.protocol === 'openbrain') {
    // OpenBrain gives memories ids of its own when they arrive: a queued memory's id would not be its id.
    throw ctx.error('CONFIG_INVALID', 'plugins.brain.config.remote: queueWhenDown works with protocol gateway only (OpenBrain chooses the ids of the memories it stores); set queueWhenDown: false.');
  }
  const breaker = ctx.breaker('remote', { timeoutMs: remote.timeoutMs, isCallerError, ...remote.breaker });
  const error = raise(ctx);
  ctx.db.migrate(offlineMigrations);
  const outbox = new Outbox(ctx.db.sqlite);
  const brain = new OfflineBrain(createRemoteBrain({ config: remote, breaker, error, log: ctx.log, env: process.env }), {
    outbox,
    written: new WrittenMemories(ctx.db.sqlite, remote.keepWritten),
    options: { queueWhenDown: remote.queueWhenDown, queueLimit: remote.queueLimit, keepWritten: remote.keepWritten },
    error,
    log: ctx.log,
  });
  // The queue (kept across restarts) goes out while it holds anything; an open breaker answers at once, so a try costs nothing.
  const timer = setInterval(() => {
    if (outbox.length > 0) brain.flush().catch((err: unknown) => ctx.log.error({ err }, 'brain: sending the queue failed; tried again later'));
  }, remote.queueRetryMs);
  timer.unref();
  ctx.onClose(() => clearInterval(timer));
  ctx.reportStatus(() => {
    const queue = brain.queueState();
    return {
      ok: breaker.state !== 'open',
      detail: { backend: 'remote', protocol: remote.protocol, breaker: breaker.state, queue },
      gauges: [{ name: 'queue_length', help: 'Remembers waiting for the remote brain.', value: queue.length }],
    };
  });
  return brain;
}
