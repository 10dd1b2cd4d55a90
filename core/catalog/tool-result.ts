import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/server';

// Symbol.for, not a local Symbol, so a result made by a plugin that loaded its own copy of
// core is still recognised.
const TOOL_CONTENT = Symbol.for('mcp-gateway.tool-content');

/** A tool result with explicit MCP content: images, audio, several text blocks. */
export interface ToolContent {
  readonly [TOOL_CONTENT]: true;
  readonly content: readonly ContentBlock[];
  /** Sent as `structuredContent` (and as the REST `data`) when given. */
  readonly structured?: Record<string, unknown>;
}

export function toolContent(content: readonly ContentBlock[], structured?: Record<string, unknown>): ToolContent {
  return { [TOOL_CONTENT]: true, content, ...(structured === undefined ? {} : { structured }) };
}

export function textBlock(text: string): ContentBlock {
  return { type: 'text', text };
}

/** Image content; `data` is raw bytes or an already base64-encoded string. */
export function imageBlock(data: Uint8Array | string, mimeType: string): ContentBlock {
  return { type: 'image', data: toBase64(data), mimeType };
}

export function audioBlock(data: Uint8Array | string, mimeType: string): ContentBlock {
  return { type: 'audio', data: toBase64(data), mimeType };
}

/**
 * An embedded resource (`type: "resource"`): the contents of `uri` carried in the result.
 * Give `text` for text, or `blob` (raw bytes, or already base64) for binary contents.
 */
export function resourceBlock(
  resource: { readonly uri: string; readonly mimeType?: string } & ({ readonly text: string } | { readonly blob: Uint8Array | string }),
): ContentBlock {
  const { uri, mimeType } = resource;
  const contents = 'text' in resource ? { text: resource.text } : { blob: toBase64(resource.blob) };
  return { type: 'resource', resource: { uri, ...(mimeType === undefined ? {} : { mimeType }), ...contents } };
}

function toBase64(data: Uint8Array | string): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL_CONTENT] === true;
}

/**
 * The JSON text of a handler's value as callers receive it: the REST `data` and, for a plain
 * value, the MCP text block. Made once per call, before the call's audit row, so a value JSON
 * cannot express (a BigInt, a cycle, a function) fails the call in the row and in the reply
 * alike: throws then, naming `tool` (the plugin's bug, INTERNAL_ERROR to the caller).
 */
export function serialiseResult(value: unknown, tool: string): string {
  let json: string | undefined;
  try {
    // Both go out over MCP; only the structured value over REST.
    if (isToolContent(value) && value.structured !== undefined) JSON.stringify(value.content);
    json = JSON.stringify(toRestData(value));
  } catch (err) {
    throw new Error(`Result of ${tool} cannot be sent as JSON: ${(err as Error).message}`, { cause: err });
  }
  if (json === undefined) throw new Error(`Result of ${tool} cannot be sent as JSON: a ${typeof value} is not a JSON value`);
  return json;
}

/** A handler's return value as an MCP tools/call result; `json` is its `serialiseResult`. */
export function toMcpResult(value: unknown, hasOutputSchema: boolean, json?: string): CallToolResult {
  if (isToolContent(value)) {
    return {
      content: [...value.content],
      ...(value.structured === undefined ? {} : { structuredContent: value.structured }),
    };
  }
  const text = json ?? (value === undefined ? 'null' : JSON.stringify(value));
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (hasOutputSchema) result.structuredContent = value as Record<string, unknown>;
  return result;
}

/** A handler's return value as the REST `data` field. */
export function toRestData(value: unknown): unknown {
  if (isToolContent(value)) return value.structured ?? { content: value.content };
  return value === undefined ? null : value;
}
