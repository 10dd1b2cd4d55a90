import type { WebviewContext } from '../declaration.js';

/** The plugin's context as its tools see it: the `ctx` setup gets, read from declaration.ts. */
export type PluginCtx = WebviewContext;
