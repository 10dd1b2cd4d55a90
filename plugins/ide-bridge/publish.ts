// Everything the backend pushes, told again to the gateway's listeners: an event on
// `ide.<type>` (the /events WebSocket and other plugins) and a claude/channel notification to
// every session on the channel of its kind. A build's status word also becomes build.start,
// build.complete or build.failed, as Core MCP's channels named them.
import type { PluginContext } from '@mcp-gateway/core';
import { BoundedMap } from './bounded.js';
import type { Build } from './model.js';
import { buildOutcome, type Outcome } from './outcome.js';
import type { PushType } from './protocol.js';

/** The notification channel of each push type: the registry entry lists a fixed set. */
const CHANNEL_OF: Record<PushType, string> = {
  'chat.message': 'ide-bridge.chat',
  'session.updated': 'ide-bridge.session',
  'plan.updated': 'ide-bridge.plan',
  'build.updated': 'ide-bridge.build',
  'build.log': 'ide-bridge.build',
  activity: 'ide-bridge.activity',
  'dashboard.state': 'ide-bridge.dashboard',
  'dashboard.overview': 'ide-bridge.dashboard',
};

export class Publisher {
  readonly #ctx: Pick<PluginContext, 'events' | 'notify' | 'log'>;
  /**
   * The last outcome announced per build. Kept apart from the cache, which answers to requests
   * also write: comparing with the cached status would miss an outcome a tool saw first.
   */
  readonly #announced: BoundedMap<string, Outcome>;

  constructor(ctx: Pick<PluginContext, 'events' | 'notify' | 'log'>, builds: number) {
    this.#ctx = ctx;
    this.#announced = new BoundedMap(builds);
  }

  /** A push the cache accepted, with `data` the checked record it kept (never the backend's raw data). */
  push(type: PushType, payload: Record<string, unknown>): void {
    this.#send(`ide.${type}`, CHANNEL_OF[type], payload);
    if (type !== 'build.updated') return;
    const build = (payload.data as { build: Build }).build;
    const outcome = buildOutcome(build.status);
    if (outcome === undefined || this.#announced.get(build.id) === outcome) return;
    this.#announced.set(build.id, outcome);
    this.#send(`build.${outcome}`, `ide-bridge.build.${outcome}`, { build });
  }

  bridge(state: 'connected' | 'disconnected', detail: Record<string, unknown>): void {
    this.#send(`ide.bridge.${state}`, 'ide-bridge.bridge', { state, ...detail });
  }

  dashboardUpdated(payload: Record<string, unknown>): void {
    this.#send('ide.dashboard.state.updated', 'ide-bridge.dashboard', payload);
  }

  /** A queued message the backend refused: it is gone, and whoever sent it should hear so. */
  queueDropped(payload: Record<string, unknown>): void {
    this.#send('ide.queue.dropped', 'ide-bridge.bridge', payload);
  }

  #send(event: string, channel: string, payload: Record<string, unknown>): void {
    this.#ctx.events.publish(event, payload);
    try {
      this.#ctx.notify.channel('all', channel, payload);
    } catch (err) {
      this.#ctx.log.warn({ err, channel }, 'ide-bridge: a channel notification could not be sent');
    }
  }
}
