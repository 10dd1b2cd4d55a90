import { JsonRpcCode, type ErrorTable, type GatewayError } from '../errors.js';

/**
 * A GatewayError as the SDK's request handlers throw it: the SDK's Protocol turns a thrown
 * error with a numeric `code` and a `data` into that JSON-RPC error object as it is (an
 * McpError would prefix the message with "MCP error <code>:").
 */
export class JsonRpcFailure extends Error {
  readonly code: number;
  readonly data: { code: string; details?: unknown };

  constructor(code: number, message: string, data: { code: string; details?: unknown }) {
    super(message);
    this.name = 'JsonRpcFailure';
    this.code = code;
    this.data = data;
  }
}

/**
 * The JSON-RPC error of a failure on a method that has no `isError` result (resources,
 * prompts, completion): the table's JSON-RPC code, else, as `errorAnswer` decides on /mcp,
 * -32600 for a caller's mistake (4xx) and -32603 for the rest; `data` carries the string code
 * and any details.
 */
export function rpcFailure(error: GatewayError, errors: ErrorTable): JsonRpcFailure {
  const spec = errors.get(error.code);
  const status = spec?.status ?? 500;
  const code = spec?.jsonRpcCode ?? (status < 500 ? JsonRpcCode.InvalidRequest : JsonRpcCode.InternalError);
  return new JsonRpcFailure(code, error.message, error.details === undefined ? { code: error.code } : { code: error.code, details: error.details });
}
