// Everything the backend pushes, told again to the gateway's listeners: an event on
// `ide.<type>` (the /events WebSocket and other plugins) and a claude/channel notification to
// every session on the channel of its kind. A build's status word also becomes build.start,
// build.complete or build.failed, as Core MCP's channels named them.
import type { PluginContext } from '../../core/index.js';
import type { PushType } from './protocol.js';

type Outcome = 'start' | 'complete' | 'failed';

const OUTCOMES: Record<string, Outcome> = {
  running: 'start',
  in_progress: 'start',
  started: 'start',
  success: 'complete',
  succeeded: 'complete',
  completed: 'complete',
  passed: 'complete',
  failed: 'failed',
  error: 'failed',
};

/** build.start, build.complete or build.failed for a status word; undefined for the others (queued, pending, ...). */
export function buildOutcome(status: string): Outcome | undefined {
  return Object.hasOwn(OUTCOMES, status) ? OUTCOMES[status] : undefined;
}

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

  constructor(ctx: Pick<PluginContext, 'events' | 'notify' | 'log'>) {
    this.#ctx = ctx;
  }

  /** A push the cache accepted; `previousStatus` is the build's status before it, to announce a change once. */
  push(type: PushType, payload: Record<string, unknown>, previousStatus?: string): void {
    this.#send(`ide.${type}`, CHANNEL_OF[type], payload);
    if (type !== 'build.updated') return;
    const build = (payload.data as { build: { status: string } }).build;
    const outcome = buildOutcome(build.status);
    if (outcome !== undefined && (previousStatus === undefined || buildOutcome(previousStatus) !== outcome)) {
      this.#send(`build.${outcome}`, `ide-bridge.build.${outcome}`, { build });
    }
  }

  bridge(state: 'connected' | 'disconnected', detail: Record<string, unknown>): void {
    this.#send(`ide.bridge.${state}`, 'ide-bridge.bridge', { state, ...detail });
  }

  dashboardUpdated(payload: Record<string, unknown>): void {
    this.#send('ide.dashboard.state.updated', 'ide-bridge.dashboard', payload);
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
