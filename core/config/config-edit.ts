import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { Document, isMap, isScalar, isSeq, parseDocument, type Pair, type YAMLMap, type YAMLSeq, type YamlNode } from '../vendor/yaml.js';
import { GatewayError } from '../contract/errors.js';
import type { ConfigItemStyle as ItemStyle } from '../contract/config-command-types.js';

/**
 * Edits of a list in a YAML config file that leave every other byte of the file as it was.
 *
 * The yaml Document API keeps comments, but re-printing a whole document moves them: aligned
 * end-of-line comments lose their column, and a comment continued on the next line is
 * re-indented under another key (try it on the shipped gateway.config.yaml). So the Document
 * API parses, locates (node ranges) and renders the new lines, and the edit is spliced into the
 * text. The splice is then checked: re-parsed, it must give the same data as the same edit made
 * through the Document API; where it does not (flow collections, odd layouts), that edit and
 * its re-printed document are written instead, still correct and with every comment.
 */

/** Parses a config file's text, or throws CONFIG_INVALID naming `where`. */
export function parseConfigText(text: string, where: string): Document {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new GatewayError('CONFIG_INVALID', `${where} is not valid YAML: ${doc.errors[0]!.message}`);
  return doc;
}

/** The list at `path`, as data; [] when a key on the way is missing or empty. Throws CONFIG_INVALID when one is of another type. */
export function listAt(doc: Document, path: readonly string[], where: string): unknown[] {
  const node = locate(doc, path, where);
  return isSeq(node) ? (node.toJSON() as unknown[]) : [];
}

/** `text` with `item` appended to the list at `path`, which is made (with its parents) when missing. */
export function appendToList(text: string, path: readonly string[], item: Record<string, unknown>, where: string, style: ItemStyle = {}): string {
  const expected = parseConfigText(text, where);
  locate(expected, path, where);
  putInList(expected, path, styledNode(expected, item, style));
  const doc = parseConfigText(text, where);
  return checked(spliceAppend(text, doc, path, item, style), expected);
}

/** `text` without item `index` of the list at `path` (the last one leaves `[]`). */
export function removeFromList(text: string, path: readonly string[], index: number, where: string): string {
  const expected = parseConfigText(text, where);
  const list = locate(expected, path, where);
  if (!isSeq(list) || index >= list.items.length) throw new Error(`removeFromList: no item ${index} at ${path.join('.')}`);
  list.items.splice(index, 1);
  const doc = parseConfigText(text, where);
  return checked(spliceRemove(text, locate(doc, path, where) as YAMLSeq, doc.getIn(path.slice(0, -1), true) as YAMLMap, path.at(-1)!, index), expected);
}

/**
 * Replaces `file` in one step: a temp file beside it (so the rename stays on one filesystem),
 * flushed, given the old file's mode, renamed over it. A symlink is followed, not replaced.
 */
export function writeFileAtomic(file: string, text: string): void {
  const target = existsSync(file) ? realpathSync(file) : file;
  const mode = existsSync(target) ? statSync(target).mode & 0o7777 : undefined;
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temp, 'wx', mode ?? 0o666);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The mode given to open is narrowed by the umask; the old file's mode is kept as it was.
    if (mode !== undefined) chmodSync(temp, mode);
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new GatewayError('CONFIG_INVALID', `Cannot write ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** Reads `file` as text, or undefined when it does not exist. */
export function readTextFile(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new GatewayError('CONFIG_INVALID', `Cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/** The node at `path`: undefined when missing or empty; a mapping on the way, a list at the end, else CONFIG_INVALID. */
function locate(doc: Document, path: readonly string[], where: string): YAMLMap | YAMLSeq | undefined {
  let node: unknown = doc.contents;
  for (let depth = 0; depth <= path.length; depth++) {
    if (isEmpty(node)) return undefined;
    const last = depth === path.length;
    if (last ? !isSeq(node) : !isMap(node)) {
      const at = depth === 0 ? 'the top level' : path.slice(0, depth).join('.');
      throw new GatewayError('CONFIG_INVALID', `${where}: ${at} must be a ${last ? 'list' : 'mapping'}; fix it by hand first.`);
    }
    if (last) return node as YAMLSeq;
    node = (node as YAMLMap).get(path[depth], true);
  }
  return undefined;
}

/** The edit through the Document API (whose `setIn` refuses to replace an empty `key:`). */
function putInList(doc: Document, path: readonly string[], item: YamlNode): void {
  const nest = (from: number): unknown => path.slice(from).reduceRight<unknown>((inner, key) => ({ [key]: inner }), [item]);
  if (isEmpty(doc.contents)) {
    doc.contents = doc.createNode(nest(0)) as YAMLMap;
    return;
  }
  let map = doc.contents as YAMLMap;
  for (let depth = 0; depth < path.length; depth++) {
    const child = map.get(path[depth], true);
    if (depth === path.length - 1 && isSeq(child)) child.items.push(item);
    else if (isEmpty(child)) map.set(path[depth], doc.createNode(nest(depth + 1)));
    else {
      map = child as unknown as YAMLMap;
      continue;
    }
    return;
  }
}

function checked(spliced: string | undefined, expected: Document): string {
  if (spliced !== undefined) {
    const again = parseDocument(spliced);
    if (again.errors.length === 0 && isDeepStrictEqual(again.toJS(), expected.toJS())) return spliced;
  }
  return expected.toString(RENDER);
}

const RENDER = { flowCollectionPadding: false, lineWidth: 0 } as const;

function spliceAppend(text: string, doc: Document, path: readonly string[], item: Record<string, unknown>, style: ItemStyle): string | undefined {
  const step = indentStep(text, doc.contents);
  const nest = (from: number): unknown => path.slice(from).reduceRight<unknown>((inner, key) => ({ [key]: inner }), [item]);
  let node: unknown = doc.contents;
  if (isEmpty(node)) {
    // Nothing but comments (or nothing): the new section goes at the end.
    return insertAt(text, text.length, render(nest(0), 0, step, style, text));
  }
  for (let depth = 0; ; depth++) {
    if (!isBlock(node) || !isMap(node)) return undefined;
    const pair = node.items.find((p) => isScalar(p.key) && p.key.value === path[depth]);
    if (!pair) {
      const column = columnOf(text, (node.items[0]!.key as YamlNode).range![0]);
      return insertAt(text, afterLastItem(text, node, column), render({ [path[depth]!]: nest(depth + 1) }, column, step, style, text));
    }
    const value = pair.value;
    const keyColumn = columnOf(text, (pair.key as YamlNode).range![0]);
    if (depth === path.length - 1 && isSeq(value) && isBlock(value)) {
      const dash = columnOf(text, value.range![0]);
      return insertAt(text, afterLastItem(text, value, dash), render([item], dash, step, style, text));
    }
    if (isEmpty(value)) return attachBelow(text, pair, render(nest(depth + 1), keyColumn + step, step, style, text));
    node = value;
  }
}

function spliceRemove(text: string, list: YAMLSeq | undefined, parent: YAMLMap, key: string, index: number): string | undefined {
  if (!list || !isBlock(list)) return undefined;
  const item = list.items[index] as YamlNode;
  let dash = item.range![0] - 1;
  while (text[dash] === ' ') dash--;
  const start = lineStart(text, dash);
  if (text[dash] !== '-' || text.slice(start, dash).trim() !== '') return undefined;
  const end = skipContinuation(text, lineEnd(text, contentEnd(item)), dash - start);
  let out = text.slice(0, start) + text.slice(end);
  if (list.items.length === 1) {
    // The last item: `servers: []`, so that the key still holds a list.
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === key)!;
    const colon = text.indexOf(':', (pair.key as YamlNode).range![1]);
    if (colon < 0 || colon >= start) return undefined;
    out = `${out.slice(0, colon + 1)} []${out.slice(colon + 1)}`;
  }
  return out;
}

/** `key:` with no value, `~`, `[]` or `{}`: the value is removed and `block` goes on the lines below the key. */
function attachBelow(text: string, pair: Pair, block: string): string {
  const value = pair.value as YamlNode | null;
  const keyEnd = (pair.key as YamlNode).range![1];
  const at = lineEnd(text, value?.range ? Math.max(value.range[1], keyEnd) : keyEnd);
  const out = insertAt(text, at, block);
  if (!value?.range || value.range[1] === value.range[0]) return out;
  let from = value.range[0];
  while (from > keyEnd && text[from - 1] === ' ') from--;
  return out.slice(0, from) + out.slice(value.range[1]);
}

/** Where a new last item of a block collection goes: after the last one's lines and the comment lines indented under it. */
function afterLastItem(text: string, collection: YAMLMap | YAMLSeq, column: number): number {
  const last = collection.items.at(-1)!;
  return skipContinuation(text, lineEnd(text, contentEnd(last as YamlNode | Pair)), column);
}

function contentEnd(node: YamlNode | Pair): number {
  if (!('range' in node)) {
    const pair = node as Pair;
    return pair.value && (pair.value as YamlNode).range ? contentEnd(pair.value as YamlNode) : (pair.key as YamlNode).range![1];
  }
  if ((isMap(node) || isSeq(node)) && isBlock(node) && node.items.length > 0) return contentEnd(node.items.at(-1) as YamlNode | Pair);
  return node.range![1];
}

function skipContinuation(text: string, at: number, column: number): number {
  while (at < text.length) {
    const next = lineEnd(text, at + 1);
    const indent = /^( *)#/.exec(text.slice(at, next));
    if (!indent || indent[1]!.length <= column) break;
    at = next;
  }
  return at;
}

/** The file's indentation step: that of the first nested mapping under the top level, else 2. */
function indentStep(text: string, root: unknown): number {
  if (!isMap(root) || !isBlock(root) || root.items.length === 0) return 2;
  const rootColumn = columnOf(text, (root.items[0]!.key as YamlNode).range![0]);
  for (const pair of root.items) {
    if (isMap(pair.value) && isBlock(pair.value) && pair.value.items.length > 0) {
      const step = columnOf(text, (pair.value.items[0]!.key as YamlNode).range![0]) - rootColumn;
      if (step > 0) return step;
    }
  }
  return 2;
}

function render(value: unknown, column: number, step: number, style: ItemStyle, text: string): string {
  const doc = new Document();
  doc.contents = styledNode(doc, value, style);
  const pad = ' '.repeat(column);
  const lines = doc.toString({ ...RENDER, indent: step }).split('\n');
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return lines.slice(0, -1).map((line) => (line ? pad + line : line)).join(eol) + eol;
}

/** `value` as a node, with the keys `style` names in flow style or quoted wherever they occur. */
function styledNode(doc: Document, value: unknown, style: ItemStyle): YamlNode {
  const node = doc.createNode(value) as YamlNode;
  const visit = (n: unknown): void => {
    if (!isMap(n) && !isSeq(n)) return;
    for (const entry of n.items as unknown[]) {
      const pair = isMap(n) ? (entry as Pair) : undefined;
      const child = pair ? pair.value : entry;
      const key = pair && isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key && style.flow?.includes(key) && (isMap(child) || isSeq(child))) child.flow = true;
      if (key && style.quoted?.includes(key) && isSeq(child)) for (const s of child.items) if (isScalar(s)) s.type = 'QUOTE_DOUBLE';
      visit(child);
    }
  };
  visit(node);
  return node;
}

function isEmpty(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  if (isScalar(node)) return node.value === null;
  return (isMap(node) || isSeq(node)) && !isBlock(node) && node.items.length === 0;
}

function isBlock(node: unknown): boolean {
  return (isMap(node) || isSeq(node)) && !node.flow;
}

function insertAt(text: string, at: number, block: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const before = text.slice(0, at);
  const gap = before === '' || before.endsWith('\n') ? '' : eol;
  return before + gap + block + text.slice(at);
}

function lineStart(text: string, at: number): number {
  return text.lastIndexOf('\n', at - 1) + 1;
}

/** The start of the line after the one holding position `at - 1` (a range end), or the end of the text. */
function lineEnd(text: string, at: number): number {
  if (at > 0 && text[at - 1] === '\n') return at;
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline + 1;
}

function columnOf(text: string, at: number): number {
  return at - lineStart(text, at);
}
