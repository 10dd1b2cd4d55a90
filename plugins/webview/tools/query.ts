// Finding elements by CSS selector and reading them: webview_query.
import type { ToolDefinition } from '@mcp-gateway/core';
import { callBudget } from '../call-budget.js';
import { ELEMENT_CAPS, elementsFound } from '../element-facts.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, session, tab } from './schemas.js';

const number = { type: 'number' } as const;

const element = {
  type: 'object',
  additionalProperties: false,
  required: ['tag', 'text', 'attributes', 'box', 'visible'],
  properties: {
    tag: { type: 'string', description: 'The tag name, lower case.' },
    text: { type: 'string', description: `Its text as rendered, trimmed, at most ${ELEMENT_CAPS.textChars} characters.` },
    attributes: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: `Its attributes, name to value: the first ${ELEMENT_CAPS.attributes}, each value at most ${ELEMENT_CAPS.valueChars} characters.`,
    },
    box: {
      anyOf: [
        { type: 'object', additionalProperties: false, required: ['x', 'y', 'width', 'height'], properties: { x: number, y: number, width: number, height: number } },
        { type: 'null' },
      ],
      description: 'Where it is, in CSS pixels relative to the viewport; null when it is not rendered (display: none).',
    },
    visible: { type: 'boolean', description: 'Rendered with a size and not visibility: hidden.' },
  },
} as const;

const query = {
  name: 'webview_query',
  title: 'Find elements by CSS selector',
  description:
    'Describes the elements matching a CSS selector as the page is now (tag, text, attributes, box, visibility), without waiting (that is webview_wait). ' +
    'To check that something is there, read values and links, or test a selector before acting. No match answers found: false.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['selector'],
    properties: {
      selector: { type: 'string', minLength: 1, maxLength: 2000 },
      all: { type: 'boolean', default: false, description: 'Every match up to limit, not only the first.' },
      limit: { type: 'integer', minimum: 1, maximum: 500, default: 50, description: 'With all.' },
      session,
      tab,
    },
    examples: [{ selector: 'h1' }, { selector: 'a', all: true, limit: 10 }],
  },
  outputSchema: pageOutput(
    {
      found: { type: 'boolean', description: 'Whether anything matches.' },
      count: { type: 'integer', minimum: 0, description: 'How many elements match, even beyond limit.' },
      elements: { type: 'array', items: element, description: 'The matches described, in document order.' },
    },
    ['found', 'count', 'elements'],
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerQueryTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(query, (args, call) => {
    // Reading the page as it is has no timeout of its own: the page must answer within an action's.
    const plan = { doing: `querying ${args.selector}`, budgetMs: callBudget(webview.limits.actionTimeoutMs) };
    return webview.inTab(call, args, plan, async (tab, session) => {
      const { count, elements } = await elementsFound(tab.page.locator(args.selector), args.all ? args.limit : 1);
      return { ...(await webview.facts(tab, session)), found: count > 0, count, elements };
    });
  });
}
