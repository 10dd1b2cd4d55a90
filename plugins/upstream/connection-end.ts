import { SdkError, SdkErrorCode, type Transport } from '@modelcontextprotocol/client';
import { describeError } from './call-failure.js';
import type { MessageTooLargeError } from './message-too-large.js';
import type { StderrLog } from './stderr-log.js';
import { StdioServerTransport } from './stdio-transport.js';

/** What is known of a connection that failed or ended: the reasons below read it. */
export interface ConnectionEnd {
  readonly transport: Transport | undefined;
  readonly stderr: StderrLog;
}

/** Why a connection attempt failed (a server's `lastError`), with the end of stderr when the process said something. */
export function describeConnectFailure(err: unknown, end: ConnectionEnd, connectTimeoutMs: number): string {
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    return `no answer to initialize (or server/discover) within connectTimeoutMs (${connectTimeoutMs} ms); raise plugins.upstream.config.connectTimeoutMs if the server is slow to start (npx may be downloading it)`;
  }
  const exit = end.transport instanceof StdioServerTransport ? end.transport.exit : undefined;
  const parts = [describeError(err)];
  if (exit) parts.push(`the process exited with ${exit.signal ?? `code ${exit.code}`}`);
  const tail = end.stderr.tail(3);
  if (tail.length) parts.push(`stderr: ${tail.join(' | ')}`);
  return parts.join('; ');
}

/** Why a connection that was up ended: the message over the bound the gateway stopped it for, or how the process exited. */
export function describeExit(end: ConnectionEnd, tooLarge: MessageTooLargeError | undefined): string {
  if (tooLarge) return `${tooLarge.message}, so the gateway stopped the server to restart it`;
  const exit = end.transport instanceof StdioServerTransport ? end.transport.exit : undefined;
  if (!exit) return 'the connection closed';
  // Stderr says why only when the server failed (a code, a crash); killed from outside, its
  // last lines are the start-up banner, which would read like an error.
  const failed = (exit.code !== null && exit.code !== 0) || (exit.signal !== null && !['SIGTERM', 'SIGKILL', 'SIGINT'].includes(exit.signal));
  const tail = failed ? end.stderr.tail(2) : [];
  return `the process exited with ${exit.signal ?? `code ${exit.code}`}${tail.length ? `; stderr: ${tail.join(' | ')}` : ''}`;
}
