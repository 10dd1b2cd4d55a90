import type { IncomingMessage, ServerResponse } from 'node:http';
import { toolScope, type Principal } from './api-keys.js';
import type { Gateway } from '../gateway.js';
import { admitJsonRequest, type HttpAdmission } from './http-admission.js';
import { errorAnswer, JSON_CONTENT_TYPE, writeAnswer, type HttpHeaders, type JsonAnswer } from './http-reply.js';
import { GatewayError, isGatewayError } from '../errors.js';
import { TOOL_NAME, type CallOutcome } from '../catalog/tool-catalog.js';
import { isThenable } from '../catalog/running-call.js';
import { restSuccessText } from '../replies.js';

const TOOLS_PREFIX = '/tools/';

/**
 * The fastify request hooks of `POST /tools/<name>` that `restCallPath` does itself, by hook
 * and function name: `admitRequest` is the admission (HttpAdmission) it runs first. A hook
 * added to those routes and not mirrored there would run for some calls and not others;
 * test/core/http/fast-path-hooks.test.ts fails until it is mirrored and listed here.
 */
export const MIRRORED_HOOKS: Readonly<Record<string, readonly string[]>> = { onRequest: ['admitRequest'] };

/** Who calls, as the REST bridge knows it. */
export interface RestCaller {
  readonly principal?: Principal;
  /** The client's address: the caller's identity when no API key names it. */
  readonly address?: string;
}

/**
 * Runs one tool call for `POST /tools/<name>` and makes its answer: `{"success": true,
 * "data": …}`, or the error envelope with the table's status. `res` is the node response,
 * whose closing before the answer (the client hung up) cancels the call, as an MCP client's
 * disconnect does. A call whose handler answered synchronously is answered synchronously
 * when nothing holds it (ToolCatalog.invoke); with the audit log, once its turn's rows are
 * written.
 */
export function restCallAnswer(gateway: Gateway, name: string, args: unknown, caller: RestCaller, res: ServerResponse): JsonAnswer | Promise<JsonAnswer> {
  const { principal } = caller;
  const outcome = gateway.catalog.invoke(name, args, {
    caller: principal ? { transport: 'rest', identity: principal.name, keyName: principal.name } : { transport: 'rest', identity: caller.address },
    allows: toolScope(principal),
    onCancelable: (cancel) =>
      res.once('close', () => {
        if (!res.writableFinished) cancel();
      }),
  });
  const answerOf = (settled: CallOutcome): JsonAnswer =>
    settled.ok ? { status: 200, text: restSuccessText(settled.json) } : errorAnswer(settled.error, gateway.errors);
  return isThenable(outcome) ? outcome.then(answerOf) : answerOf(outcome);
}

/**
 * `POST /tools/<name>` with a JSON body, served on node's HTTP server ahead of fastify: the
 * REST bridge's hot path. A framework's per-request machinery (request and reply objects,
 * hooks, content-type parsers, the serializer) cost more than the rest of a trivial call;
 * this path does only what such a request needs, with the same checks and answers as the
 * fastify routes in rest-routes.ts (the same admission, body rules, call and envelope).
 * Anything else (another method or path, a name that is not a tool name, another content
 * type) returns false and goes to fastify, which answers it as before.
 */
export function restCallPath(gateway: Gateway, admission: HttpAdmission, bodyLimit: number): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { errors, log } = gateway;
  const failed = () => new GatewayError('INTERNAL_ERROR', 'The gateway failed to handle this request; its log has the details.');

  const answer = (res: ServerResponse, reply: JsonAnswer, headers?: HttpHeaders) => {
    try {
      writeAnswer(res, reply, headers);
    } catch (err) {
      // Not expected: results and error details are serialised (and refused) in the catalog.
      log.error({ err }, 'REST answer could not be sent');
      writeAnswer(res, errorAnswer(failed(), errors), headers);
    }
  };

  const failure = (req: IncomingMessage, err: unknown): JsonAnswer => {
    if (!isGatewayError(err)) log.error({ err, url: req.url }, 'HTTP request failed');
    return errorAnswer(isGatewayError(err) ? err : failed(), errors);
  };

  const call = (req: IncomingMessage, res: ServerResponse, name: string, args: unknown, caller: RestCaller, headers?: HttpHeaders) => {
    const send = (reply: JsonAnswer) => {
      if (!res.destroyed) answer(res, reply, headers);
    };
    let reply: JsonAnswer | Promise<JsonAnswer>;
    try {
      reply = restCallAnswer(gateway, name, args, caller, res);
    } catch (err) {
      reply = failure(req, err);
    }
    if (isThenable(reply)) reply.then(send, (err: unknown) => send(failure(req, err)));
    else send(reply);
  };

  return (req, res) => {
    const url = req.url!;
    if (req.method !== 'POST' || !url.startsWith(TOOLS_PREFIX)) return false;
    const query = url.indexOf('?', TOOLS_PREFIX.length);
    const name = query === -1 ? url.slice(TOOLS_PREFIX.length) : url.slice(TOOLS_PREFIX.length, query);
    const contentType = req.headers['content-type'];
    if (!TOOL_NAME.test(name) || contentType === undefined || !JSON_CONTENT_TYPE.test(contentType)) return false;

    const refuse = (error: GatewayError, headers?: HttpHeaders) => {
      if (!res.destroyed) answer(res, errorAnswer(error, errors), headers);
    };
    admitJsonRequest(req, admission, TOOLS_PREFIX + name, bodyLimit, refuse, (args, admitted) =>
      call(req, res, name, args, { principal: admitted.principal, address: req.socket.remoteAddress }, admitted.headers),
    );
    return true;
  };
}
