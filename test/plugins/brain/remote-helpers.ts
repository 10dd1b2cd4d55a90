// What the remote back-end tests share: the remote config as the plugin's schema resolves it,
// a real `brain:remote` breaker, and a scripted local HTTP server for answers a real remote
// will not give on demand.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { GatewayError, type Breaker, type BreakerOptions, type Logger } from '../../../core/index.js';
import { pluginConfig, testBreaker } from '../../../core/testing.js';
import type { Brain } from '../../../plugins/brain/brain.js';
import type { RemoteConfig } from '../../../plugins/brain/config.js';
import brainPlugin from '../../../plugins/brain/index.js';
import type { RaiseError } from '../../../plugins/brain/declaration.js';
import { createRemoteBrain, isCallerError } from '../../../plugins/brain/remote/index.js';

export { startOpenBrainServer, type OpenBrainServer } from '../../fixtures/openbrain-server/server.js';

export const KEY_ENV = 'TEST_BRAIN_REMOTE_KEY';
export const KEY = 'sk-remote-brain-0123456789abcdef';
/** The agent the tests act as. */
export const CALL = { agent: 'tester' } as const;

/** A logger at debug level whose lines the test reads. */
export function capturedLog(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (lines.push(chunk.toString('utf8')), done()) });
  return { log: pino({ level: 'debug' }, sink) as unknown as Logger, text: () => lines.join('') };
}

/** plugins.brain.config.remote with the schema's defaults, quick retries, and `more` over them. */
export function remoteConfig(url: string | undefined, more: Record<string, unknown> = {}): RemoteConfig {
  const config = { backend: 'remote', remote: { ...(url === undefined ? {} : { url }), apiKeyEnv: KEY_ENV, retryBaseMs: 1, retryMaxMs: 20, timeoutMs: 2000, ...more } };
  return pluginConfig<{ remote: RemoteConfig }>(brainPlugin, config).remote;
}

/** What ctx.error does for the brain plugin. */
export const raise: RaiseError = (code, message, details) => new GatewayError(code, message, { details });

/** Thresholds under which a breaker does not open unless the test asks. */
const PATIENT: BreakerOptions = { errorThresholdPercentage: 50, resetTimeoutMs: 60_000, volumeThreshold: 1000, rollingCountTimeoutMs: 60_000 };

/** A real breaker named brain:remote, as index.ts makes it; it does not open unless the test asks. */
export function remoteBreaker(t: { after(fn: () => unknown): void }, config: RemoteConfig, options: BreakerOptions = {}): Breaker {
  const { breaker, close } = testBreaker('brain:remote', { ...PATIENT, timeoutMs: config.timeoutMs, isCallerError, ...options });
  t.after(close);
  return breaker;
}

export interface Remote {
  readonly brain: Brain;
  readonly breaker: Breaker;
  readonly log: () => string;
}

/** The Brain createRemoteBrain makes for `config`, with the key set unless `env` says otherwise. */
export function remoteBrain(t: { after(fn: () => unknown): void }, config: RemoteConfig, options: { env?: NodeJS.ProcessEnv; breaker?: BreakerOptions } = {}): Remote {
  const breaker = remoteBreaker(t, config, options.breaker);
  const captured = capturedLog();
  const brain = createRemoteBrain({ config, breaker, error: raise, log: captured.log, env: options.env ?? { [KEY_ENV]: KEY } });
  return { brain, breaker, log: captured.text };
}

/** The error `promise` rejects with (it must reject). */
export async function failure(promise: Promise<unknown>): Promise<GatewayError & { details?: any }> {
  try {
    await promise;
  } catch (err) {
    return err as GatewayError & { details?: any };
  }
  assert.fail('expected a rejection');
}

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: any;
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

export type Script = (seen: Seen, res: ServerResponse, index: number) => void;

/** A local server that answers request n with `script(seen, res, n)`; closed when the test ends. */
export async function scripted(t: { after(fn: () => unknown): void }, script: Script): Promise<{ url: string; requests: Seen[] }> {
  const requests: Seen[] = [];
  const held = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const seen: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: text === '' ? undefined : JSON.parse(text), at: Date.now() };
      requests.push(seen);
      held.add(res);
      res.on('close', () => held.delete(res));
      script(seen, res, requests.length - 1);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  t.after(() => new Promise<void>((done) => (held.forEach((res) => res.destroy()), server.closeAllConnections(), server.close(() => done()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/** Writes a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A memory as a gateway's tools answer it. */
export function memory(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: '0b6c3c5e-8d0e-4f3a-9d57-3a8f1f2a9c01',
    agent_id: 'team-key',
    type: 'fact',
    content: 'The build runs on Node 20.',
    tags: ['build'],
    org: null,
    project: 'gateway',
    confidence: 0.8,
    supersedes_id: null,
    superseded_by: null,
    expires_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    forgotten_at: null,
    forget_reason: null,
    ...fields,
  };
}
