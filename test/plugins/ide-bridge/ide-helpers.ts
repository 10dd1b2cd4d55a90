import { after } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import type { Gateway } from '../../../core/gateway/gateway.js';
import { startIdeBackend, type IdeBackend } from '../../fixtures/ide-backend/server.js';
import { memoryClient, recordNotifications, startGateway, toolCalls, waitFor, type Received } from '../../helpers.js';

export { startIdeBackend, type IdeBackend };

/** Small waits, so that reconnection and timeouts happen within a test. */
export const QUICK = { reconnect: { baseMs: 50, maxMs: 400 }, keepAliveMs: 5000, requestTimeoutMs: 1000, handshakeTimeoutMs: 1000 };

/** A reference backend on port 0 (or `port`), closed when the file ends. */
export async function ideBackend(options: Parameters<typeof startIdeBackend>[0] = {}): Promise<IdeBackend> {
  const backend = await startIdeBackend(options);
  after(() => backend.close());
  return backend;
}

export interface IdeGateway {
  readonly gateway: Gateway;
  readonly client: Client;
  /** Notifications the client received (claude/channel among them). */
  readonly received: Received[];
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  fail(name: string, args?: Record<string, unknown>): Promise<{ code: string; message: string; details?: any }>;
  status(): Promise<any>;
  /** Resolves once ide_bridge_status satisfies `holds`; throws after 10 s. */
  until(holds: (status: any) => boolean): Promise<any>;
  connected(): Promise<void>;
}

/** A gateway with the ide-bridge plugin on `url`, QUICK timings under `config`. */
export async function ideGateway(url: string, config: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}): Promise<IdeGateway> {
  const gateway = await startGateway({ plugins: { 'ide-bridge': { config: { url, ...QUICK, ...config } } }, ...overrides });
  const client = await memoryClient(gateway);
  const received = recordNotifications(client);
  const { call, fail } = toolCalls(client);
  const status = () => call('ide_bridge_status');
  const until = async (holds: (status: any) => boolean) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await status();
      if (holds(now)) return now;
      if (Date.now() > deadline) throw new Error(`ide_bridge_status never got there: ${JSON.stringify(now)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const connected = async () => void (await until((s) => s.connected));
  return { gateway, client, received, call, fail, status, until, connected };
}

/** The claude/channel notifications on `channel`, in arrival order. */
export function channelMessages(received: Received[], channel: string): any[] {
  return received.filter((n) => n.method === 'notifications/claude/channel' && n.params?.channel === channel).map((n) => n.params.data);
}

export { waitFor };
