import { join, resolve } from 'node:path';

// Apart from config.ts (which loads YAML and compiles the config schema) so that the --stdio
// start can name the config file before any of that is loaded (core/mcp/stdio-cache.ts).

export const CONFIG_ENV_VAR = 'MCP_GATEWAY_CONFIG';
export const DEFAULT_CONFIG_FILE = 'gateway.config.yaml';

/**
 * The file `loadConfig` reads, whether or not it exists: `--config`, else MCP_GATEWAY_CONFIG
 * (both from the working directory, `named: true`), else ./gateway.config.yaml. For commands
 * that write the config (`mcp-gateway upstream add`) as well as read it.
 */
export function configFilePath(options: { file?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): { file: string; named: boolean } {
  const cwd = options.cwd ?? process.cwd();
  const explicit = options.file ?? (options.env ?? process.env)[CONFIG_ENV_VAR];
  return explicit ? { file: resolve(cwd, explicit), named: true } : { file: join(cwd, DEFAULT_CONFIG_FILE), named: false };
}
