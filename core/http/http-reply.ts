import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { GatewayError, isGatewayError, type ErrorTable } from '../contract/errors.js';
import { ForbiddenKeyError, parseJson } from '../lib/json.js';
import { jsonRpcError, restFailure, statusOf } from '../contract/replies.js';

// The HTTP side of the reply module (replies.ts builds every envelope; this writes them).
export { statusOf };

/** Extra response headers, by lower-case name. */
export type HttpHeaders = Record<string, string | number>;

/** A JSON answer before it is written: fastify's reply and the bare REST path both send these. */
export interface JsonAnswer {
  readonly status: number;
  /** The body, serialised when it is written... */
  readonly body?: unknown;
  /** ...unless it is already JSON text (a tool result is serialised once, before its audit row). */
  readonly text?: string;
  readonly headers?: HttpHeaders;
}

/**
 * `{"success": false, "error": {...}}` with the table's status, or a JSON-RPC error object
 * when the request was for `/mcp`. Retry-After goes with an open breaker.
 */
export function errorAnswer(error: GatewayError, errors: ErrorTable, jsonRpc = false): JsonAnswer {
  const status = statusOf(error, errors);
  const retryAfterMs = (error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
  const headers = error.code === 'BREAKER_OPEN' && typeof retryAfterMs === 'number' ? { 'retry-after': Math.max(1, Math.ceil(retryAfterMs / 1000)) } : undefined;
  return { status, headers, body: jsonRpc ? jsonRpcError(null, error, errors) : restFailure(error) };
}

/**
 * The error envelope as a whole HTTP/1.1 response, for a socket that has no response object
 * (a connection refused as it is accepted, a refused WebSocket upgrade); the connection closes.
 */
export function rawErrorResponse(error: GatewayError, status: number, headers: HttpHeaders = {}): string {
  const body = JSON.stringify(restFailure(error));
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`;
}

/** Sends an answer through fastify (whose serializer is JSON.stringify, see http-server.ts). */
export function sendAnswer(reply: FastifyReply, answer: JsonAnswer): FastifyReply {
  if (answer.headers) reply.headers(answer.headers);
  // A string with a JSON content type is sent as it is, not serialised again.
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.text ?? answer.body);
}

export function sendError(reply: FastifyReply, error: GatewayError, errors: ErrorTable, jsonRpc = false): FastifyReply {
  return sendAnswer(reply, errorAnswer(error, errors, jsonRpc));
}

/**
 * Writes an answer on a plain node response, with the headers fastify would send for it.
 * `extra` are headers decided before the answer (the rate limit's); the answer's own win over
 * them. Neither may name the content type or length. Throws when the body cannot be
 * serialised (a BigInt, a cycle), before anything is written.
 */
export function writeAnswer(res: ServerResponse, answer: JsonAnswer, extra?: HttpHeaders): void {
  const text = answer.text ?? JSON.stringify(answer.body);
  // One flat list to writeHead: node then builds the header block from it directly, without
  // the per-header entries setHeader keeps (half the cost of writing a small answer).
  const headers: Array<string | number> = ['content-type', 'application/json; charset=utf-8', 'content-length', Buffer.byteLength(text)];
  const more = extra && answer.headers ? { ...extra, ...answer.headers } : (extra ?? answer.headers);
  if (more) for (const name in more) headers.push(name, more[name]!);
  res.writeHead(answer.status, headers as string[]);
  res.end(text);
}

/**
 * A JSON request body as arguments, parsed exactly as the socket transports parse a message
 * (`__proto__` keys refused); an empty body is no arguments.
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return parseJson(text);
  } catch (err) {
    if (err instanceof ForbiddenKeyError) throw new GatewayError('INVALID_REQUEST', err.message);
    throw new GatewayError('PARSE_ERROR', `The body is not valid JSON: ${(err as Error).message}`);
  }
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
      return bodyTooLarge(bodyLimit);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError('INVALID_REQUEST', 'Content-Length does not match the body.');
  }
  if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) {
    return new GatewayError('INVALID_REQUEST', message ?? 'Bad request.');
  }
  return new GatewayError('INTERNAL_ERROR', 'The gateway failed to handle this request; its log has the details.', { cause: err });
}

/** The media type the fast paths (rest-calls.ts, mcp-http.ts) read themselves; anything else is left to fastify (415 there). */
export const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Reads a request body on a plain node request as UTF-8 text (raw buffers, decoded once at the
 * end, as fastify's own body reader does) and gives it to `done`; `tooLarge` instead when it
 * passes `limit`, by its Content-Length before any of it is read or as it arrives. A
 * connection reset mid-body calls neither: nobody is left to answer. (Node's parser holds the
 * body to its Content-Length: no length check is needed at the end.)
 */
export function readBody(req: IncomingMessage, limit: number, done: (text: string) => void, tooLarge: () => void): void {
  if (Number(req.headers['content-length']) > limit) {
    tooLarge();
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) {
      stop();
      tooLarge();
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    stop();
    done(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  };
  const onError = () => stop();
  const stop = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
}

export function bodyTooLarge(bodyLimit: number): GatewayError {
  return new GatewayError('MESSAGE_TOO_LARGE', `The body is larger than ${bodyLimit} bytes.`);
}
