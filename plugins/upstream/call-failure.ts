import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { formatBytes, GatewayError, isGatewayError } from '@mcp-gateway/core';
import type { RaiseError } from './declaration.js';
import { isMessageTooLarge, type MessageTooLargeError } from './message-too-large.js';
import type { UpstreamServer } from './upstream-server.js';

/**
 * What a caller sees of a request to an upstream server that failed, as a code from the one
 * error table. The gateway's own errors (BREAKER_OPEN, BREAKER_TIMEOUT, a cancelled call)
 * pass unchanged. A request that could not reach an HTTP server also tells the server that
 * its connection is gone, so the next calls fail fast while it reconnects.
 */
export function callFailure(err: unknown, server: UpstreamServer, error: RaiseError, signal?: AbortSignal): Error {
  if (isGatewayError(err)) return err;
  // Aborted by the call's own signal: the reason is core's (CANCELLED, TOOL_TIMEOUT, shutdown).
  if (signal?.aborted && isGatewayError(signal.reason)) return signal.reason;
  if (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) {
    const cause = server.tooLarge();
    // A stdio server stopped for it: the message may have been this call's answer or another's.
    if (cause) return tooLarge(cause, server, error, ' while this call was in flight, so the gateway stopped reading and is restarting the server');
    return error('UPSTREAM_UNAVAILABLE', `The upstream server "${server.name}" went away during the request (${server.status().lastError ?? 'connection closed'}); it is being restarted.`, {
      server: server.name,
    });
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout) {
    return new GatewayError('BREAKER_TIMEOUT', `The upstream server "${server.name}" did not answer in time.`);
  }
  // SDK v2 rebuilds a server's "resource not found" (-32602 or the older -32002, with data.uri) as this.
  if (err instanceof ResourceNotFoundError) {
    return new GatewayError('RESOURCE_NOT_FOUND', `The upstream server "${server.name}" has no such resource: ${stripPrefix(err.message)}`);
  }
  if (err instanceof ProtocolError) {
    // Made here (by the HTTP reader), never by the server: see MessageTooLargeError.
    if (isMessageTooLarge(err.data)) return tooLarge(err.data, server, error, '; the gateway read no further');
    const message = stripPrefix(err.message);
    switch (err.code) {
      case ProtocolErrorCode.InvalidParams:
        return new GatewayError('INVALID_ARGUMENTS', `The upstream server "${server.name}" refused the arguments: ${message}`);
      case -32002: // the MCP code for an unknown resource
        return new GatewayError('RESOURCE_NOT_FOUND', `The upstream server "${server.name}" has no such resource: ${message}`);
      default:
        return error('UPSTREAM_ERROR', `The upstream server "${server.name}" answered with error ${err.code}: ${message}`, { server: server.name, rpcCode: err.code });
    }
  }
  if (isUnreachable(err)) {
    const reason = describeError(err);
    server.suspect(reason);
    return error('UPSTREAM_UNAVAILABLE', `The upstream server "${server.name}" could not be reached: ${reason}. Retry, or see its state in gateway_status.`, { server: server.name });
  }
  const message = err instanceof Error ? err.message : String(err);
  return error('UPSTREAM_ERROR', `The request to the upstream server "${server.name}" failed: ${message}`, { server: server.name });
}

function tooLarge(cause: MessageTooLargeError, server: UpstreamServer, error: RaiseError, what: string): Error {
  const limit = formatBytes(cause.limit);
  return error(
    'UPSTREAM_MESSAGE_TOO_LARGE',
    `The upstream server "${server.name}" sent a message of more than ${limit} (its maxMessageBytes)${what}. Ask it for less (a range, a page), or raise maxMessageBytes in the server's entry of plugins.upstream.config.servers.`,
    { server: server.name, maxMessageBytes: cause.limit },
  );
}

/** A network failure, or an HTTP server failing (5xx) rather than answering. */
function isUnreachable(err: unknown): boolean {
  if (err instanceof SdkHttpError) return err.status >= 500;
  if (!(err instanceof Error)) return false;
  if (err.message === 'fetch failed' || err.message.startsWith('Not connected')) return true;
  const code = (err.cause as { code?: string } | undefined)?.code ?? (err as { code?: string }).code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|EPIPE|ENOTFOUND|EHOSTUNREACH|UND_ERR_SOCKET|UND_ERR_CONNECT_TIMEOUT)$/.test(code);
}

/** The SDK writes "MCP error -32602: ..." before the server's own message. */
function stripPrefix(message: string): string {
  return message.replace(/^MCP error -?\d+: /, '');
}

/**
 * An error's message, with its cause's code or message when it has one: fetch says only "fetch
 * failed", and what happened (a refused connection, a reset) is in its cause.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.code ?? cause?.message;
  return detail ? `${err.message} (${detail})` : err.message;
}
