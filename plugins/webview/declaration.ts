// What the webview plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { webviewErrors } from './errors.js';

export const declared = {
  name: 'webview',
  version: '0.1.0',
  description: 'A real Chromium for agents: navigate, read the accessibility snapshot, click and type by its refs, query, console, network, eval, screenshots and tabs, each client in a browser context of its own.',
  configSchema,
  errors: webviewErrors,
  services: [
    {
      name: 'browser',
      description: 'the Chromium of plugins.webview.config.executablePath (launched on first use), or the one attached with webview_connect',
    },
  ],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type WebviewContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = WebviewContext['error'];
