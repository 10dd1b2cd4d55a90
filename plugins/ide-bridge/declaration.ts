// What the ide-bridge plugin declares (its definition but `setup`), and the types read from it.
// index.ts spreads it into definePlugin; the modules that `setup` hands its `ctx` to take their
// ctx type from here: they cannot name the plugin, whose type is inferred from `setup`
// (docs/plugins/typed-contract.md).
import type { ContextOf } from '@mcp-gateway/core';
import { configSchema } from './config.js';
import { ideErrors } from './errors.js';

export const declared = {
  name: 'ide-bridge',
  version: '0.1.0',
  description: 'Bridge to an IDE backend over WebSocket: chat sessions with agents, plans, builds and a dashboard, cached, with reconnection; its pushes become gateway events.',
  configSchema,
  errors: ideErrors,
  services: [{ name: 'backend', description: 'the IDE backend of plugins.ide-bridge.config.url (a WebSocket speaking plugins/ide-bridge/PROTOCOL.md)' }],
  channels: [
    'ide-bridge.chat',
    'ide-bridge.session',
    'ide-bridge.plan',
    'ide-bridge.build',
    'ide-bridge.build.start',
    'ide-bridge.build.complete',
    'ide-bridge.build.failed',
    'ide-bridge.activity',
    'ide-bridge.dashboard',
    'ide-bridge.bridge',
  ],
} as const;

/** The `ctx` the plugin's `setup` gets. */
export type IdeContext = ContextOf<typeof declared>;

/** `ctx.error`, as the plugin's domain modules get it: its own codes and core's. */
export type RaiseError = IdeContext['error'];
