import { resolve } from 'node:path';
import { ProtocolErrorCode, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { Logger } from '@mcp-gateway/core';
import { boundedFetch } from './bounded-fetch.js';
import type { ServerConfig } from './config.js';
import type { MessageTooLargeError } from './message-too-large.js';
import type { StderrLog } from './stderr-log.js';
import type { StreamCuts } from './stream-cuts.js';
import { StdioServerTransport } from './stdio-transport.js';

/** A stdio server's transport: spawned in `cwd` (relative to the workspace), lines bounded by maxMessageBytes. */
export function stdioTransport(config: ServerConfig, options: { workspaceRoot: string; stderr: StderrLog; graceMs: number }): StdioServerTransport {
  return new StdioServerTransport({
    command: config.command!,
    args: config.args,
    env: config.env,
    cwd: resolve(options.workspaceRoot, config.cwd ?? '.'),
    stderr: options.stderr,
    graceMs: options.graceMs,
    maxMessageBytes: config.maxMessageBytes,
  });
}

/**
 * An HTTP server's transport, reading no message over maxMessageBytes (bounded-fetch.ts). The
 * requests whose answer was cut off get an error answer here, carrying the error itself
 * (callFailure recognises it), so their calls fail now instead of at their timeout. The
 * connection stays: the server is up, and its other calls are unaffected. `cuts` is this
 * connection's memory of the streams it cut (stream-cuts.ts).
 */
export function httpTransport(config: ServerConfig, options: { name: string; log: Logger; cuts: StreamCuts }): StreamableHTTPClientTransport {
  const refuse = (error: MessageTooLargeError, requestIds: ReadonlyArray<string | number>) => {
    options.log.warn({ server: options.name, requests: requestIds.length, limit: error.limit }, 'upstream message over maxMessageBytes: not read');
    for (const id of requestIds) answerWithError(transport, id, error);
  };
  const transport = new StreamableHTTPClientTransport(new URL(config.url!), {
    requestInit: { headers: { ...config.headers } },
    fetch: boundedFetch(config.maxMessageBytes, refuse, options.cuts),
  });
  return transport;
}

function answerWithError(transport: Transport, id: string | number, error: MessageTooLargeError): void {
  transport.onmessage?.({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCode.InternalError, message: error.message, data: error } });
}
