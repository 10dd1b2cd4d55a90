/**
 * The YAML parser of the config and registry files (see ./README.md for why it goes through
 * this file). Some 80 modules: ~45 ms of every start-up one by one, bundled ~13 ms.
 */
export { parse, YAMLParseError } from 'yaml';
