import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/server';
import { coreErrors, errorBody, JsonRpcCode, type CoreErrorCode, type ErrorSpec, type ErrorTable, type GatewayError } from './errors.js';

/**
 * The one place that builds what a caller receives: JSON-RPC error objects for every MCP
 * transport, the tools/call response, and the REST envelopes. Status, JSON-RPC code and MCP
 * form always come from the error table, so a code answers the same way on every face.
 * (http/http-reply.ts writes these on HTTP responses.)
 */

export type RequestId = string | number;

/** Where a code's spec is looked up: a gateway's table (plugin codes too), or core's alone. */
export type ErrorLookup = Pick<ErrorTable, 'get'>;

/** Core's codes only, for places that run before or without a gateway (the stream transports). */
export const coreErrorLookup: ErrorLookup = {
  get: (code) => (Object.hasOwn(coreErrors, code) ? { ...(coreErrors[code as CoreErrorCode] as ErrorSpec), owner: 'core' } : undefined),
};

/** The HTTP status of a code, from the table; an unknown code is a 500. */
export function statusOf(error: GatewayError, errors: ErrorLookup): number {
  return errors.get(error.code)?.status ?? 500;
}

/**
 * The JSON-RPC error code of a gateway code: the table's `jsonRpcCode`; a code whose MCP form
 * is a tool result has none, and is then an Invalid Request when the caller was at fault
 * (4xx), else an internal error.
 */
export function jsonRpcCodeOf(error: GatewayError, errors: ErrorLookup): number {
  const spec = errors.get(error.code);
  return spec?.jsonRpcCode ?? ((spec?.status ?? 500) < 500 ? JsonRpcCode.InvalidRequest : JsonRpcCode.InternalError);
}

/** `{jsonrpc, id, error: {code, message, data: {code}}}`: the gateway code rides in `data.code`. */
export function jsonRpcError(id: RequestId | null, error: GatewayError, errors: ErrorLookup = coreErrorLookup): JSONRPCMessage {
  // (The SDK's type has no null id, which JSON-RPC requires when the request's id is unknown.)
  return { jsonrpc: '2.0', id, error: { code: jsonRpcCodeOf(error, errors), message: error.message, data: { code: error.code } } } as JSONRPCMessage;
}

/** A tool failure as an MCP result: `isError` with `{code, message, details?}` as JSON text. */
export function toolErrorResult(error: GatewayError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(error)) }] };
}

/**
 * The response to a tools/call: its result, a failure whose code's MCP form is `protocol` as a
 * JSON-RPC error, any other failure as an `isError` result.
 */
export function toolCallResponse(id: RequestId, outcome: { ok: true; result: CallToolResult } | { ok: false; error: GatewayError }, errors: ErrorLookup): JSONRPCMessage {
  if (outcome.ok) return { jsonrpc: '2.0', id, result: outcome.result };
  if (errors.get(outcome.error.code)?.mcp === 'protocol') return jsonRpcError(id, outcome.error, errors);
  return { jsonrpc: '2.0', id, result: toolErrorResult(outcome.error) };
}

/** The REST error envelope. */
export function restFailure(error: GatewayError): { success: false; error: ReturnType<typeof errorBody> } {
  return { success: false, error: errorBody(error) };
}

/** The REST success envelope. */
export function restSuccess<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/** The REST success envelope as text, around a result already serialised (`json`). */
export function restSuccessText(json: string): string {
  return `{"success":true,"data":${json}}`;
}

const JSON_TEXT = Symbol('mcp-gateway.json-text');

/**
 * `message` carrying its own JSON text, which the stream transports write as it is instead of
 * serialising the message again (`jsonTextOf`). `text` must be what JSON.stringify(message)
 * gives. Kept in a non-enumerable symbol: JSON.stringify and object spreads leave it behind.
 */
export function withJsonText<T extends object>(message: T, text: string): T {
  return Object.defineProperty(message, JSON_TEXT, { value: text });
}

/** The JSON text of `message`: the one it carries (`withJsonText`), else JSON.stringify's. */
export function jsonTextOf(message: object): string {
  return (message as { [JSON_TEXT]?: string })[JSON_TEXT] ?? JSON.stringify(message);
}
