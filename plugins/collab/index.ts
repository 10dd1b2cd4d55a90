// The collab plugin: where several agents working on one codebase meet — who is here, what
// each is doing, what is left, who holds which file. README.md has the tools and the config.
import { definePlugin } from '@mcp-gateway/core';
import type {} from '@mcp-gateway/plugin-process/api';
import { Banners } from './banner.js';
import type { Collab } from './collab.js';
import type { CollabStore } from './context.js';
import { declared } from './declaration.js';
import { deliverNews } from './delivery.js';
import { AgentHandles } from './agent-handles.js';
import { AgentIdentity } from './identity.js';
import { Mailbox } from './mailbox.js';
import { PlanBook } from './plans/plan-book.js';
import { registerCollabPrompts } from './prompts.js';
import { registerCollabResources } from './resources.js';
import { migrations } from './store/schema.js';
import { registerCollabTools } from './tools/register.js';
import { Watchdog } from './watchdog.js';
import { Workers } from './workers/workers.js';

export type { CollabConfig } from './config.js';

export default definePlugin({
  ...declared,
  async setup(ctx) {
    const store: CollabStore = ctx.store;
    await store.migrate(migrations);
    const identity = new AgentIdentity(ctx, store, await AgentHandles.open(ctx));
    const mailbox = new Mailbox(ctx, store);
    const banners = new Banners(ctx, store, mailbox);
    banners.install(identity);
    deliverNews(ctx, identity, banners, mailbox);
    const workers = new Workers({ ctx, store, mailbox, process: ctx.api('process'), lastCall: (agent) => identity.lastCall(agent) });
    // Collab closes before the process plugin (reverse load order): its workers stop here,
    // while their exits can still be told from restarts.
    ctx.onClose(() => workers.close());
    const collab: Collab = { ctx, store, identity, mailbox, banners, plans: new PlanBook(ctx, store), workers };
    const tools = registerCollabTools(collab);
    await registerCollabResources(collab, tools);
    registerCollabPrompts(collab);
    new Watchdog(collab).start();
  },
});
