import type { ClientCapabilities, InputRequiredResult } from '@modelcontextprotocol/server';
import { isPlainObject } from '../lib/json.js';

type Capabilities = Record<string, Record<string, object>>;

/**
 * The first question of an InputRequiredResult that the request's declared client capabilities
 * do not cover, with what is missing, by the rules the SDK's Server applies before it sends
 * one (a form elicitation needs `elicitation.form`, where a bare `elicitation: {}` counts; a URL
 * elicitation `elicitation.url`; sampling with tools `sampling.tools`; roots `roots`): for a
 * result made ahead of the SDK (modern-call-stage.ts), which must refuse it as the SDK would,
 * with -32021.
 */
export function uncoveredQuestion(result: InputRequiredResult, declared: unknown): { missing: ClientCapabilities; message: string } | undefined {
  for (const [key, question] of Object.entries(result.inputRequests ?? {})) {
    const { method, params } = question as { method: string; params?: Record<string, unknown> };
    const missing = missingOf(requiredFor(method, params ?? {}), isPlainObject(declared) ? declared : {});
    if (missing) return { missing, message: `Cannot request input '${key}' (${method}): the request's client capabilities do not declare the required capability` };
  }
  return undefined;
}

function requiredFor(method: string, params: Record<string, unknown>): Capabilities {
  if (method === 'elicitation/create') return { elicitation: params.mode === 'url' ? { url: {} } : { form: {} } };
  if (method === 'sampling/createMessage') return { sampling: params.tools !== undefined || params.toolChoice !== undefined ? { tools: {} } : {} };
  return { roots: {} };
}

function missingOf(required: Capabilities, declared: Record<string, unknown>): Capabilities | undefined {
  const missing: Capabilities = {};
  for (const [capability, members] of Object.entries(required)) {
    const given = declared[capability];
    if (given === undefined) {
      missing[capability] = members;
      continue;
    }
    if (!isPlainObject(given)) continue;
    const absent = Object.entries(members).filter(([member]) => given[member] === undefined && !(capability === 'elicitation' && member === 'form' && given.url === undefined));
    if (absent.length > 0) missing[capability] = Object.fromEntries(absent);
  }
  return Object.keys(missing).length > 0 ? missing : undefined;
}
