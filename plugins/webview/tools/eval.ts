// Running JavaScript in the page: webview_eval. It can do anything the page can (read its
// storage, post forms as the user), which is why it can be switched off (eval.enabled) and
// why every call is logged with who asked, but never with the script itself.
import type { ToolDefinition } from '@mcp-gateway/core';
import { callBudget } from '../call-budget.js';
import { runScript } from '../page-script.js';
import { pageValue } from '../page-value.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, session, tab } from './schemas.js';

const evaluate = {
  name: 'webview_eval',
  title: 'Run JavaScript in the page',
  description:
    'Runs JavaScript in the page and answers its value as JSON; return plain data, not DOM nodes. A throw answers ok: false. ' +
    'To read or act on a page, webview_snapshot, webview_query and webview_click say more for less: use this for what they cannot.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['script'],
    properties: {
      script: { type: 'string', minLength: 1, maxLength: 100_000, description: 'An expression, statements (the last value) or a function, which is called; a promise is awaited.' },
      // Not the shared timeoutMs (minimum 1): running out of time closes the tab, so a few ms is never what a caller means.
      timeoutMs: {
        type: 'integer',
        minimum: 100,
        maximum: 300_000,
        description: 'A script still running then is stopped by closing its tab.',
      },
      session,
      tab,
    },
    examples: [
      { script: 'document.title' },
      { script: "() => [...document.querySelectorAll('a')].map((a) => a.href)" },
      { script: "const heading = document.querySelector('h1'); heading.textContent.trim()" },
    ],
  },
  outputSchema: {
    type: 'object',
    oneOf: [
      pageOutput(
        {
          ok: { type: 'boolean', const: true, description: 'The script ran to its end.' },
          result: { description: 'Its value as JSON (undefined as null); when truncated, the first limits.resultChars characters of its JSON text, as a string.' },
          truncated: { type: 'boolean', description: 'true: the value was longer than limits.resultChars as JSON, and result is its cut JSON text.' },
        },
        ['ok', 'result', 'truncated'],
      ),
      pageOutput(
        {
          ok: { type: 'boolean', const: false, description: 'The script threw (or its promise rejected) in the page.' },
          error: { type: 'string', description: 'What it threw: "TypeError: x is undefined".' },
        },
        ['ok', 'error'],
      ),
    ],
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerEvalTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(evaluate, (args, call) => {
    if (!ctx.config.eval.enabled) throw ctx.error('WEBVIEW_EVAL_DISABLED', 'webview_eval is switched off in this gateway (plugins.webview.config.eval.enabled): read the page with webview_snapshot or webview_query instead.');
    const timeout = webview.within(args.timeoutMs, webview.limits.evalTimeoutMs);
    // runScript stops the script at `timeout` itself, with a message of its own; the budget is beyond it.
    return webview.inTab(call, args, { doing: 'running a script', budgetMs: callBudget(timeout) }, async (tab, session) => {
      const { caller } = call;
      call.log.info({ by: caller.keyName ?? caller.identity, transport: caller.transport, session: session.name, tab: tab.id, chars: args.script.length }, 'webview_eval');
      const outcome = await runScript(tab, args.script, timeout, call.signal);
      if ('stopped' in outcome) {
        if (outcome.stopped === 'cancelled') throw call.signal.reason;
        throw ctx.error(
          'WEBVIEW_TIMEOUT',
          `The script still ran after ${timeout} ms, so its tab ${tab.id} was closed to stop it (the page and its state are gone; the next call opens a new tab). Make the script finish, or ask for a longer timeoutMs (up to limits.evalTimeoutMs).`,
          { tab: tab.id, timeoutMs: timeout },
        );
      }
      const facts = await webview.facts(tab, session);
      if (!outcome.ok) return { ...facts, ok: false, error: outcome.error };
      return { ...facts, ok: true, ...pageValue(outcome.value, webview.limits.resultChars) };
    });
  });
}
