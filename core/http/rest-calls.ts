import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../auth/api-keys.js';
import { restView } from '../catalog/caller-view.js';
import type { Gateway } from '../gateway/gateway.js';
import { admitJsonRequest, type HttpAdmission } from './http-admission.js';
import { errorAnswer, JSON_CONTENT_TYPE, writeAnswer, type HttpHeaders, type JsonAnswer } from './http-reply.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import { TOOL_NAME, type CallOutcome } from '../catalog/tool-catalog.js';
import { isThenable } from '../catalog/running-call.js';
import { restSuccessText } from '../contract/replies.js';

/** What this file uses of the gateway. */
export type RestCallGateway = Pick<Gateway, 'catalog' | 'errors' | 'log' | 'profiles'>;

const TOOLS_PREFIX = '/tools/';
const PROFILES_PREFIX = '/profiles/';

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
  /** The profile the URL names (`/profiles/<profile>/tools/<name>`); the plain paths serve `all`. */
  readonly profile?: string;
}

/**
 * Runs one tool call for `POST /tools/<name>` and makes its answer: `{"success": true,
 * "data": …}`, or the error envelope with the table's status. `res` is the node response,
 * whose closing before the answer (the client hung up) cancels the call, as an MCP client's
 * disconnect does. A call whose handler answered synchronously is answered synchronously
 * when nothing holds it (ToolCatalog.invoke); with the audit log, once its turn's rows are
 * written.
 */
export function restCallAnswer(gateway: RestCallGateway, name: string, args: unknown, caller: RestCaller, res: ServerResponse): JsonAnswer | Promise<JsonAnswer> {
  const { principal } = caller;
  const view = restView(gateway.profiles, principal, caller.profile);
  const outcome = gateway.catalog.invoke(name, args, {
    caller: principal ? { transport: 'rest', identity: principal.name, keyName: principal.name } : { transport: 'rest', identity: caller.address },
    allows: view.allows,
    profile: view.profile,
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
 * `POST /tools/<name>` (and `/profiles/<profile>/tools/<name>`) with a JSON body, served on node's HTTP server ahead of fastify: the
 * REST bridge's hot path. A framework's per-request machinery (request and reply objects,
 * hooks, content-type parsers, the serializer) cost more than the rest of a trivial call;
 * this path does only what such a request needs, with the same checks and answers as the
 * fastify routes in rest-routes.ts (the same admission, body rules, call and envelope).
 * Anything else (another method or path, a name that is not a tool name, another content
 * type) returns false and goes to fastify, which answers it as before.
 */
export function restCallPath(gateway: RestCallGateway, admission: HttpAdmission, bodyLimit: number): (req: IncomingMessage, res: ServerResponse) => boolean {
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
    if (req.method !== 'POST') return false;
    const target = callTarget(req.url!);
    if (!target) return false;
    const { name, profile } = target;
    const contentType = req.headers['content-type'];
    if (!TOOL_NAME.test(name) || contentType === undefined || !JSON_CONTENT_TYPE.test(contentType)) return false;
    // An unknown profile goes to fastify's route, which answers PROFILE_NOT_FOUND.
    if (profile !== undefined && !gateway.profiles.get(profile)) return false;

    const refuse = (error: GatewayError, headers?: HttpHeaders) => {
      if (!res.destroyed) answer(res, errorAnswer(error, errors), headers);
    };
    admitJsonRequest(req, admission, TOOLS_PREFIX + name, bodyLimit, refuse, (args, admitted) =>
      call(req, res, name, args, { principal: admitted.principal, address: req.socket.remoteAddress, profile }, admitted.headers),
    );
    return true;
  };
}

/** The tool and profile of `/tools/<name>` or `/profiles/<profile>/tools/<name>` (query string ignored). */
function callTarget(url: string): { name: string; profile?: string } | undefined {
  const path = url.split('?', 1)[0]!;
  if (path.startsWith(TOOLS_PREFIX)) return { name: path.slice(TOOLS_PREFIX.length) };
  if (!path.startsWith(PROFILES_PREFIX)) return undefined;
  const [profile, tools, name, ...rest] = path.slice(PROFILES_PREFIX.length).split('/');
  return tools === 'tools' && name !== undefined && rest.length === 0 && profile ? { name, profile } : undefined;
}
