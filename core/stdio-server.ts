import type { Gateway } from './gateway.js';
import { NdjsonTransport } from './ndjson-transport.js';

/**
 * Serves one MCP session on the process's stdin/stdout. stdout carries JSON-RPC and nothing
 * else: the logger writes to stderr and child processes never inherit stdout. Resolves when
 * the client closes stdin (its way of saying it is done).
 */
export async function serveStdio(gateway: Gateway): Promise<void> {
  const ended = new Promise<void>((resolve) => {
    const transport = new NdjsonTransport(process.stdin, process.stdout, {
      maxMessageBytes: gateway.config.transports.stdio.maxMessageBytes,
      onEnd: resolve,
    });
    gateway.connect(transport, { transport: 'stdio', peer: 'stdio' }).catch((err) => {
      gateway.log.error({ err }, 'could not start the stdio session');
      resolve();
    });
  });
  await ended;
}
