import { resolve } from 'node:path';
import { definePlugin } from '../../core/index.js';
import { fileErrors } from './errors.js';
import { configSchema } from './files-context.js';
import { Sandbox } from './sandbox.js';
import { SearchWorkers } from './search.js';
import { registerDirTools } from './tools/dirs.js';
import { registerLanguageTools } from './tools/lang.js';
import { registerReadTools } from './tools/read.js';
import { registerWriteTools } from './tools/write.js';

export default definePlugin({
  name: 'files',
  version: '0.1.0',
  description: 'Sandboxed file tools: read, write, edit, list, find and search files under allowed roots, and detect languages.',
  configSchema,
  errors: fileErrors,
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
