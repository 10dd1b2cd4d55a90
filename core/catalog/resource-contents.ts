import { BlobResourceContentsSchema, TextResourceContentsSchema } from '@modelcontextprotocol/core';
import type { ReadResourceResult } from '@modelcontextprotocol/server';
import type { ResourceContent } from '../contract/content-types.js';

export type ResourceContents = ReadResourceResult['contents'];

/**
 * A reader's return value as MCP resource contents: strings become `text`, bytes a base64
 * `blob`, `uri` defaults to the URI read and `mimeType` to the definition's. Throws an Error
 * (the plugin's bug, reported as INTERNAL_ERROR) for anything else.
 */
export function toResourceContents(value: unknown, uri: string, mimeType: string | undefined): ResourceContents {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) throw new Error(`the reader of ${uri} returned no contents`);
  return items.map((item: unknown, i) => {
    const content = contentOf(item as ResourceContent, uri, mimeType);
    const schema = 'text' in content ? TextResourceContentsSchema : BlobResourceContentsSchema;
    const checked = schema.safeParse(content);
    if (!checked.success) throw new Error(`content ${i} of ${uri} is not MCP resource contents: ${checked.error.message}`);
    return content;
  });
}

function contentOf(item: ResourceContent, uri: string, mimeType: string | undefined): ResourceContents[number] {
  const withType = (type: string | undefined) => (type === undefined ? {} : { mimeType: type });
  if (typeof item === 'string') return { uri, ...withType(mimeType), text: item };
  if (item instanceof Uint8Array) return { uri, ...withType(mimeType), blob: base64(item) };
  if (typeof item !== 'object' || item === null) throw new Error(`the reader of ${uri} returned ${item === null ? 'null' : typeof item}, not text, bytes or a content object`);
  const own = { uri: item.uri ?? uri, ...withType(item.mimeType ?? mimeType) };
  if ('text' in item) return { ...own, text: item.text };
  if ('blob' in item) return { ...own, blob: typeof item.blob === 'string' ? item.blob : base64(item.blob) };
  throw new Error(`a content object of ${uri} has neither "text" nor "blob"`);
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}
