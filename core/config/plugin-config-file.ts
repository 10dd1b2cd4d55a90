import { isMap, isScalar, isSeq, type Document } from '../vendor/yaml.js';
import { configFilePath } from './config-path.js';
import { appendToList, listAt, parseConfigText, readTextFile, removeFromList, writeFileAtomic } from './config-edit.js';
import type { ConfigItemStyle, PluginConfigFile } from '../contract/config-command-types.js';

/**
 * `plugins.<plugin>` of one config file, for a plugin's config command (ConfigCommandIo's
 * openConfig): `file` as the user named it, else MCP_GATEWAY_CONFIG, else ./gateway.config.yaml.
 */
export function openPluginConfig(plugin: string, file?: string, cwd?: string): PluginConfigFile {
  const target = configFilePath({ file, cwd });
  const section = (path: readonly string[]) => ['plugins', plugin, ...path];
  let text = readTextFile(target.file);
  let doc: Document | undefined = text === undefined ? undefined : parseConfigText(text, target.file);
  // Each edit starts from the file as it is now, so that two edits in a row both land.
  const edit = (change: (current: string) => string) => {
    const next = change(readTextFile(target.file) ?? '');
    writeFileAtomic(target.file, next);
    text = next;
    doc = parseConfigText(next, target.file);
  };
  return {
    path: target.file,
    named: target.named,
    get exists() {
      return text !== undefined;
    },
    get(path) {
      const node: unknown = doc?.getIn(section(path), true);
      return isMap(node) || isSeq(node) || isScalar(node) ? node.toJSON() : node;
    },
    list: (path) => (doc ? listAt(doc, section(path), target.file) : []),
    append: (path, item, style?: ConfigItemStyle) => edit((current) => appendToList(current, section(path), item, target.file, style)),
    remove: (path, index) => edit((current) => removeFromList(current, section(path), index, target.file)),
  };
}
