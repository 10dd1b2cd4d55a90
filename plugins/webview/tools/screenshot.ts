// Seeing the page: webview_screenshot. Over MCP the picture is an image content block; REST
// and the CLI carry only the structured part of an answer, so there it comes as base64 `data`.
import { imageBlock, toolContent, type ToolDefinition } from '@mcp-gateway/core';
import { callBudget } from '../call-budget.js';
import { imageSize } from '../image-size.js';
import { hasTarget, locate } from '../target.js';
import type { Webview } from '../webview.js';
import type { PluginCtx } from './plugin-ctx.js';
import { pageOutput, ref, selector, session, tab, timeoutMs } from './schemas.js';

const DEFAULT_JPEG_QUALITY = 80;
const MIME = { png: 'image/png', jpeg: 'image/jpeg' } as const;

const screenshot = {
  name: 'webview_screenshot',
  title: 'Take a screenshot',
  description:
    'A picture of the viewport, the whole page (fullPage) or one element (ref or selector), to see layout, colours and images. ' +
    'To find and act on elements, webview_snapshot is cheaper and exact.',
  inputSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      format: { enum: ['png', 'jpeg'], default: 'png' },
      quality: { type: 'integer', minimum: 1, maximum: 100, description: `JPEG only; default ${DEFAULT_JPEG_QUALITY}.` },
      fullPage: { type: 'boolean', default: false, description: 'Not with ref or selector.' },
      ref,
      selector,
      timeoutMs,
      session,
      tab,
    },
    examples: [{}, { fullPage: true, format: 'jpeg', quality: 60 }, { selector: 'h1' }],
  },
  outputSchema: pageOutput(
    {
      format: { enum: ['png', 'jpeg'] },
      width: { type: 'integer', minimum: 1, description: 'In pixels, read from the image itself.' },
      height: { type: 'integer', minimum: 1, description: 'In pixels, read from the image itself.' },
      bytes: { type: 'integer', minimum: 1, description: 'The size of the image file.' },
      data: { type: 'string', description: 'The image, base64: over REST and the CLI only (over MCP it is the image content block).' },
    },
    ['format', 'width', 'height', 'bytes'],
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
} as const satisfies ToolDefinition;

export function registerScreenshotTools(ctx: PluginCtx, webview: Webview): void {
  ctx.tool(screenshot, (args, call) => {
    const element = hasTarget(args);
    if (args.fullPage && element) throw ctx.error('INVALID_ARGUMENTS', 'fullPage takes the whole page and ref or selector one element: give one or the other.');
    if (args.quality !== undefined && args.format !== 'jpeg') throw ctx.error('INVALID_ARGUMENTS', 'quality is for JPEG: add format "jpeg", or drop quality (PNG is lossless).');
    const doing = element ? `taking a screenshot of ${args.ref ?? args.selector}` : 'taking a screenshot';
    const timeout = webview.within(args.timeoutMs, webview.limits.actionTimeoutMs);
    // Finding the element, then taking the picture: each may take the timeout.
    const budgetMs = callBudget(element ? timeout : 0, timeout);
    return webview.inTab(call, args, { doing, budgetMs }, async (tab, session) => {
      // scale 'css': one image pixel per CSS pixel, so the size matches the viewport and the page.
      const options = { type: args.format, timeout, scale: 'css', ...(args.format === 'jpeg' ? { quality: args.quality ?? DEFAULT_JPEG_QUALITY } : {}) } as const;
      const image = element ? await (await locate(tab.page, args, ctx.error, timeout)).locator.screenshot(options) : await tab.page.screenshot({ ...options, fullPage: args.fullPage });
      const max = webview.limits.screenshotBytes;
      if (image.length > max) {
        throw ctx.error(
          'WEBVIEW_SCREENSHOT_TOO_LARGE',
          `The screenshot is ${image.length} bytes, more than limits.screenshotBytes (${max}): take format "jpeg" with a lower quality, the viewport instead of fullPage, or one element.`,
          { bytes: image.length, max },
        );
      }
      const facts = { ...(await webview.facts(tab, session)), format: args.format, ...imageSize(image), bytes: image.length };
      const { transport } = call.caller;
      if (transport === 'rest' || transport === 'cli') return { ...facts, data: image.toString('base64') };
      return toolContent([imageBlock(image, MIME[args.format])], facts);
    });
  });
}
