import type { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType, LOG_LEVEL_META_KEY, ProtocolErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { McpFace } from '../mcp/mcp-face.js';
import { isPlainObject } from '../lib/json.js';
import { jsonRpcError } from '../contract/replies.js';
import { toolCallStage, type Send } from '../mcp/call-stage.js';
import { serverInfo } from '../mcp/mcp-session.js';
import { modernToolCalls } from '../mcp/modern-call-stage.js';
import { MODERN_REVISION } from '../mcp/era-claim.js';
import type { ModernServerOptions } from '../mcp/modern-server.js';
import { isToolCallMessage } from '../mcp/tool-call-message.js';
import { writeAnswer } from './http-reply.js';

/** What this file uses of the gateway. */
export type DirectCallGateway = Pick<Gateway, 'errors' | 'log' | 'version'>;

/** How a `Mcp-Name` header that the SDK would decode begins (its Base64 sentinel, `=?base64?…?=`). */
const ENCODED_NAME = '=?';

/**
 * Answers a plain 2026-07-28 `tools/call` on `/mcp` before the SDK's HTTP entry, which would
 * turn the request into a web Request, classify it, make a `Server` and a per-request transport
 * for it, and turn its answer back: the same call the modern Server's gate stage answers
 * (modern-call-stage.ts), with the checks the entry makes first done here. It takes only what
 * the entry would pass untouched and answer with one JSON response: the standard headers
 * present and agreeing with the body (`Mcp-Protocol-Version: 2026-07-28`, `Mcp-Method:
 * tools/call`, `Mcp-Name` the tool's name as it is), a JSON content type, and nothing that would
 * stream (a `progressToken`, a `logLevel`). Anything else, and what the stage leaves to the SDK,
 * goes on to the entry; false then. As the entry does, the answer is 200 whatever it holds, but
 * 400 for -32021, and a client that goes away cancels the call.
 */
export function answerToolCallDirectly(gateway: DirectCallGateway, face: McpFace, req: IncomingMessage, res: ServerResponse, body: unknown, options: ModernServerOptions): boolean {
  // A client already gone is the entry's to answer: it runs nothing for it.
  if (res.destroyed || !isPlainCall(req, body)) return false;
  const send: Send = async (message) => {
    if (!('id' in message) || res.headersSent || res.destroyed) return;
    const refused = 'error' in message && message.error.code === ProtocolErrorCode.MissingRequiredClientCapability;
    try {
      writeAnswer(res, { status: refused ? 400 : 200, body: message });
    } catch (err) {
      // Only what JSON cannot express gets here (the pipeline checks results and details first).
      gateway.log.error({ err }, 'MCP answer could not be written');
      writeAnswer(res, { status: 500, body: jsonRpcError(message.id ?? null, new GatewayError('INTERNAL_ERROR', 'Internal error: the answer could not be written; the gateway log has the details.')) });
    }
  };
  const stage = toolCallStage(send, gateway, modernToolCalls(face.modernToolCallHost(options), send, serverInfo(gateway.version)));
  const cancel = () => {
    if (!res.writableFinished) stage.cancelAll();
  };
  res.once('close', cancel);
  if (stage.receive(body as JSONRPCMessage)) return true;
  res.off('close', cancel);
  return false;
}

/** Whether the entry would pass this request on untouched, and its answer would be one JSON response. */
function isPlainCall(req: IncomingMessage, body: unknown): boolean {
  if (!isToolCallMessage(body) || !isJsonContentType(req.headers['content-type'] ?? null)) return false;
  const { headers } = req;
  if (headers['mcp-protocol-version'] !== MODERN_REVISION || headers['mcp-method'] !== 'tools/call') return false;
  const params = body.params;
  if (!isPlainObject(params) || typeof params.name !== 'string' || params.name.startsWith(ENCODED_NAME) || headers['mcp-name'] !== params.name) return false;
  const meta = params._meta;
  return isPlainObject(meta) && meta.progressToken === undefined && meta[LOG_LEVEL_META_KEY] === undefined;
}
