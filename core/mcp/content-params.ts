import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { GatewayError } from '../errors.js';
import { jsonRpcError } from '../replies.js';

type Params = Record<string, unknown>;
type Check = (params: Params) => string | undefined;

const cursor: Check = (p) => (p.cursor !== undefined && typeof p.cursor !== 'string' ? '"cursor" must be a string' : undefined);
const uri: Check = (p) => (typeof p.uri !== 'string' ? '"uri" must be a string holding a resource URI' : undefined);

/** What each method's params must look like, in the words a caller reads. */
const CHECKS: Record<string, Check> = {
  'resources/list': cursor,
  'resources/templates/list': cursor,
  'prompts/list': cursor,
  'resources/read': uri,
  'resources/subscribe': uri,
  'resources/unsubscribe': uri,
  'prompts/get': (p) => {
    if (typeof p.name !== 'string') return '"name" must be a string naming a prompt';
    return p.arguments === undefined || isStringRecord(p.arguments) ? undefined : '"arguments" must be an object whose values are strings';
  },
  'completion/complete': (p) => {
    const ref = p.ref as Params | undefined;
    if (!isObject(ref) || !((ref.type === 'ref/prompt' && typeof ref.name === 'string') || (ref.type === 'ref/resource' && typeof ref.uri === 'string'))) {
      return '"ref" must be {"type": "ref/prompt", "name"} or {"type": "ref/resource", "uri"}';
    }
    const argument = p.argument as Params | undefined;
    if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') return '"argument" must be {"name", "value"} with two strings';
    const context = p.context as Params | undefined;
    if (context !== undefined && (!isObject(context) || (context.arguments !== undefined && !isStringRecord(context.arguments)))) {
      return '"context.arguments" must be an object whose values are strings';
    }
    return undefined;
  },
};

/**
 * Answers a resources, prompts or completion request whose params are malformed with -32602
 * INVALID_PARAMS and a sentence, before the SDK sees it: the SDK would answer -32603 with zod's
 * JSON as the message. Installed after `connect`, like the other wrappers of `onmessage`.
 */
export function refuseMalformedContentParams(transport: Transport): void {
  const next = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if ('method' in message && 'id' in message) {
      const check = CHECKS[message.method];
      const params = message.params ?? {};
      const problem = check && (isObject(params) ? check(params) : 'params must be an object');
      if (problem) {
        const error = new GatewayError('INVALID_PARAMS', `Invalid ${message.method} params: ${problem}.`);
        transport.send(jsonRpcError(message.id, error)).catch(() => {});
        return;
      }
    }
    next(message, extra);
  };
}

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
