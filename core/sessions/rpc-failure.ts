import type { ErrorTable, GatewayError } from '../contract/errors.js';
import { jsonRpcCodeOf } from '../contract/replies.js';

/**
 * A GatewayError as the SDK's request handlers throw it: the SDK's Protocol turns a thrown
 * error with a numeric `code` and a `data` into that JSON-RPC error object as it is (an
 * McpError would prefix the message with "MCP error <code>:").
 */
export class JsonRpcFailure extends Error {
  readonly code: number;
  readonly data: FailureData;

  constructor(code: number, message: string, data: FailureData) {
    super(message);
    this.name = 'JsonRpcFailure';
    this.code = code;
    this.data = data;
  }
}

/** `data` of the gateway's JSON-RPC errors: the string code, any details, and what the specification asks for. */
type FailureData = { code: string; details?: unknown; uri?: string };

/**
 * The JSON-RPC error of a failure on a method that has no `isError` result (resources,
 * prompts, completion), with the JSON-RPC code replies.ts gives every face; `data` carries the
 * string code and any details, and `uri` for a resource not found (both revisions name it).
 */
export function rpcFailure(error: GatewayError, errors: ErrorTable, uri?: string): JsonRpcFailure {
  const data: FailureData = error.details === undefined ? { code: error.code } : { code: error.code, details: error.details };
  if (uri !== undefined && error.code === 'RESOURCE_NOT_FOUND') data.uri = uri;
  return new JsonRpcFailure(jsonRpcCodeOf(error, errors), error.message, data);
}
