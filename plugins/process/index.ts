// The process plugin: start, follow, talk to and stop long-running processes (dev servers,
// watchers, test runs), with their records in the gateway database. README.md has the tools.
import { join } from 'node:path';
import { definePlugin } from '@mcp-gateway/core';
import type { ProcessApi } from './api.js';
import { declared } from './declaration.js';
import type { RaiseError } from './declaration.js';
import { prepareLaunch } from './launch.js';
import { createProcessApi } from './process-api.js';
import { migrations, ProcessStore } from './process-store.js';
import { ProcessSupervisor } from './process-supervisor.js';
import type { ProcessToolDeps } from './tools/common.js';
import { registerInputTools } from './tools/input.js';
import { registerInspectTools } from './tools/inspect.js';
import { registerLifecycleTools } from './tools/lifecycle.js';
import { registerPortTools } from './tools/ports.js';
import { registerRunTools } from './tools/run.js';

export type { ProcessConfig } from './config.js';
export type { ProcessApi } from './api.js';

export default definePlugin({
  ...declared,
  setup(ctx): ProcessApi {
    ctx.db.migrate(migrations);
    const error: RaiseError = (code, message, details) => ctx.error(code, message, details);
    const store = new ProcessStore(ctx.db.sqlite);
    const supervisor = new ProcessSupervisor({
      store,
      config: ctx.config,
      log: ctx.log,
      events: ctx.events,
      error,
      logDir: (id) => join(ctx.dataDir, 'logs', id),
    });
    // Before adopt(): should setup fail after this, the closer still handles what was adopted.
    ctx.onClose(() => supervisor.close());
    supervisor.adopt();

    const deps: ProcessToolDeps = {
      ctx,
      supervisor,
      launch: (request) => prepareLaunch(request, { config: ctx.config, resolveCwd: (cwd) => ctx.workspace.resolve(cwd), error }),
    };
    registerLifecycleTools(deps);
    registerInspectTools(deps);
    registerInputTools(deps);
    registerRunTools(deps);
    registerPortTools(deps);
    return createProcessApi({ ctx, supervisor, error });
  },
});
