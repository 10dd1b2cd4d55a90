import { LoggingLevelSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GatewayError } from '../errors.js';

type Params = Record<string, unknown>;
type Check = (params: Params) => string | undefined;

const cursor: Check = (p) => (p.cursor !== undefined && typeof p.cursor !== 'string' ? '"cursor" must be a string' : undefined);
const uri: Check = (p) => (typeof p.uri !== 'string' ? '"uri" must be a string holding a resource URI' : undefined);

const LOG_LEVELS: readonly string[] = LoggingLevelSchema.options;

/** What each method's params must look like, in the words a caller reads. */
const CHECKS: Record<string, Check> = {
  'logging/setLevel': (p) => (LOG_LEVELS.includes(p.level as string) ? undefined : `"level" must be one of ${LOG_LEVELS.join(', ')}`),
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
 * Why the SDK would refuse this request's params, in a sentence: INVALID_PARAMS (-32602), for
 * logging/setLevel and the resources, prompts and completion requests. Checked before the SDK
 * sees them, which would answer -32603 (an internal error) with zod's JSON as the message (SDK
 * 1.32 and 2.4 alike). tools/call's params are checked on its own path (mcp-tool-calls.ts).
 */
export function paramsProblem(message: JSONRPCMessage): GatewayError | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  // Own keys only: a method named `constructor` or `__proto__` is no check.
  if (!Object.hasOwn(CHECKS, message.method)) return undefined;
  const check = CHECKS[message.method]!;
  const params = message.params ?? {};
  const problem = isObject(params) ? check(params) : 'params must be an object';
  return problem === undefined ? undefined : new GatewayError('INVALID_PARAMS', `Invalid ${message.method} params: ${problem}.`);
}

function isObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): boolean {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
