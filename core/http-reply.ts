import type { FastifyReply } from 'fastify';
import { errorBody, GatewayError, isGatewayError, type ErrorTable } from './errors.js';

/** The HTTP status of a code, from the one error table. */
export function statusOf(error: GatewayError, errors: ErrorTable): number {
  return errors.get(error.code)?.status ?? 500;
}

/**
 * Sends `{"success": false, "error": {...}}` with the table's status, or a JSON-RPC error
 * object when the request was for `/mcp`. Retry-After goes with an open breaker.
 */
export function sendError(reply: FastifyReply, error: GatewayError, errors: ErrorTable, jsonRpc = false): FastifyReply {
  const retryAfterMs = (error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  if (error.code === 'BREAKER_OPEN' && typeof retryAfterMs === 'number') {
    reply.header('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  }
  reply.code(statusOf(error, errors)).type('application/json; charset=utf-8');
  if (!jsonRpc) return reply.send({ success: false, error: errorBody(error) });
  // Codes whose MCP form is a tool result have no JSON-RPC code; at the HTTP layer a caller's
  // mistake is an Invalid Request, anything else an internal error.
  const jsonRpcCode = errors.get(error.code)?.jsonRpcCode ?? (statusOf(error, errors) < 500 ? -32600 : -32603);
  return reply.send({ jsonrpc: '2.0', id: null, error: { code: jsonRpcCode, message: error.message, data: { code: error.code } } });
}

/**
 * What the caller may see of an error fastify or one of its plugins raised before a route
 * ran. Anything unrecognised with a 5xx status becomes INTERNAL_ERROR; its details stay in
 * the log.
 */
export function fromHttpError(err: unknown, bodyLimit: number): GatewayError {
  if (isGatewayError(err)) return err;
  const { code, statusCode, message } = err as { code?: string; statusCode?: number; message?: string };
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('UNSUPPORTED_MEDIA_TYPE', 'The body must be JSON: send Content-Type: application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('MESSAGE_TOO_LARGE', `The body is larger than ${bodyLimit} bytes.`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError('INVALID_REQUEST', 'Content-Length does not match the body.');
  }
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new GatewayError('INVALID_REQUEST', message ?? 'Bad request.');
  }
  return new GatewayError('INTERNAL_ERROR', 'The gateway failed to handle this request; its log has the details.', { cause: err });
}
