import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { GatewayError } from '../contract/errors.js';
import { isPlainObject } from '../lib/json.js';

type Params = Record<string, unknown>;
type Check = (params: Params) => string | undefined;

const cursor: Check = (p) => (p.cursor !== undefined && typeof p.cursor !== 'string' ? '"cursor" must be a string' : undefined);
const uri: Check = (p) => (typeof p.uri !== 'string' ? '"uri" must be a string holding a resource URI' : undefined);

const LOG_LEVELS: readonly string[] = LoggingLevelSchema.options;

/** What the SDK's zod schema for tools/call params would refuse, in words a caller can act on. */
export function toolCallProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return 'params must be an object';
  if (typeof params.name !== 'string') return '"name" must be a string naming a tool';
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return '"arguments" must be an object';
  const meta = params._meta;
  if (meta === undefined) return undefined;
  if (!isPlainObject(meta)) return '"_meta" must be an object';
  const token = meta.progressToken;
  if (token !== undefined && typeof token !== 'string' && !Number.isSafeInteger(token)) return '"_meta.progressToken" must be a string or an integer';
  return undefined;
}

/** Methods of the 2025 era that the 2026-07-28 revision removed (`_meta` carries the log level; subscriptions/listen replaces subscribing). */
const REMOVED_IN_2026 = new Set(['logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/** What each method's params must look like, in the words a caller reads. */
const CHECKS: Record<string, Check> = {
  // A 2025-era session answers tools/call on its own stage (mcp-tool-calls.ts), which checks first.
  'tools/call': toolCallProblem,
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
    if (!isPlainObject(ref) || !((ref.type === 'ref/prompt' && typeof ref.name === 'string') || (ref.type === 'ref/resource' && typeof ref.uri === 'string'))) {
      return '"ref" must be {"type": "ref/prompt", "name"} or {"type": "ref/resource", "uri"}';
    }
    const argument = p.argument as Params | undefined;
    if (!isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') return '"argument" must be {"name", "value"} with two strings';
    const context = p.context as Params | undefined;
    if (context !== undefined && (!isPlainObject(context) || (context.arguments !== undefined && !isStringRecord(context.arguments)))) {
      return '"context.arguments" must be an object whose values are strings';
    }
    return undefined;
  },
};

/**
 * Why the SDK would refuse this request's params, in a sentence: INVALID_PARAMS (-32602), for
 * tools/call, logging/setLevel and the resources, prompts and completion requests. Checked
 * before the SDK sees them, which would answer -32603 (an internal error) with zod's JSON as
 * the message (SDK 1.32 and 2.4 alike).
 */
export function paramsProblem(message: JSONRPCMessage, era: 'legacy' | 'modern' = 'legacy'): GatewayError | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  // Own keys only: a method named `constructor` or `__proto__` is no check.
  if (!Object.hasOwn(CHECKS, message.method)) return undefined;
  // Methods the 2026-07-28 revision removed: the SDK answers them -32601, whatever their params.
  if (era === 'modern' && REMOVED_IN_2026.has(message.method)) return undefined;
  const check = CHECKS[message.method]!;
  const params = message.params ?? {};
  const problem = isPlainObject(params) ? check(params) : 'params must be an object';
  return problem === undefined ? undefined : new GatewayError('INVALID_PARAMS', `Invalid ${message.method} params: ${problem}.`);
}

function isStringRecord(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string');
}
