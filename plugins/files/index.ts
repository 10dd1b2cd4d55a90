import { resolve } from 'node:path';
import { definePlugin } from '@mcp-gateway/core';
import { declared } from './files-context.js';
import { Sandbox } from './sandbox.js';
import { SearchWorkers } from './search.js';
import { registerDirTools } from './tools/dirs.js';
import { registerLanguageTools } from './tools/lang.js';
import { registerReadTools } from './tools/read.js';
import { registerWriteTools } from './tools/write.js';

export default definePlugin({
  ...declared,
  setup(ctx) {
    // Roots are relative to the gateway's workspace; none configured means the workspace.
    const roots = ctx.config.roots.length > 0 ? ctx.config.roots.map((r) => resolve(ctx.workspace.root, r)) : [ctx.workspace.root];
    const files = { ctx, sandbox: new Sandbox(roots, { protection: ctx.workspace, refuseHardLinks: ctx.workspace.refuseHardLinks }), searches: new SearchWorkers(), config: ctx.config };
    registerReadTools(files);
    registerWriteTools(files);
    registerDirTools(files);
    registerLanguageTools(files);
    ctx.onClose(() => files.searches.close());
  },
});
