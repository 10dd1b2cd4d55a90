/**
 * The YAML parser of the config and registry files (see ./README.md for why it goes through
 * this file). Some 80 modules: ~45 ms of every start-up one by one, bundled ~13 ms. The
 * Document API is for the commands that edit the config (core/config/config-edit.ts).
 */
export { Document, isMap, isScalar, isSeq, parse, parseDocument, YAMLParseError } from 'yaml';
export type { Node as YamlNode, Pair, YAMLMap, YAMLSeq } from 'yaml';
