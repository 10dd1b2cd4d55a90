/**
 * The public types of a plugin's `configCommand`: `mcp-gateway <plugin> ...` run on the config
 * file alone, without starting the gateway (docs/plugins/config-commands.md). The upstream
 * plugin's `mcp-gateway upstream add|remove|list` is one.
 */

/** Flow style (`[a, b]`, `{K: v}`) for keys of a new list item, as people write them by hand. */
export interface ConfigItemStyle {
  readonly flow?: readonly string[];
  /** Keys whose list values are double-quoted (`args: ["-y", "pkg"]`), so no flag reads as YAML. */
  readonly quoted?: readonly string[];
}

/**
 * The plugin's own section of one config file (`plugins.<name>`), read and edited in place: the
 * comments, layout and mode of the file are kept, a write replaces the file in one step, and a
 * value is seen as written (`${VAR}` not expanded). Paths are keys under `plugins.<name>`, such
 * as `['config', 'servers']`. A file that is no valid YAML, or a key on a path that holds
 * another type, throws CONFIG_INVALID naming the file.
 */
export interface PluginConfigFile {
  /** The file's absolute path. */
  readonly path: string;
  /** Whether `--config` or MCP_GATEWAY_CONFIG named it (not ./gateway.config.yaml by default). */
  readonly named: boolean;
  /** Whether the file exists; an append makes it. */
  readonly exists: boolean;
  /** The value at `path`, as data; undefined when a key on the way is missing. */
  get(path: readonly string[]): unknown;
  /** The list at `path`; [] when missing or empty. */
  list(path: readonly string[]): unknown[];
  /** Appends `item` to the list at `path`, making the list, its parents and the file as needed. */
  append(path: readonly string[], item: Record<string, unknown>, style?: ConfigItemStyle): void;
  /** Removes item `index` of the list at `path` (as `list` numbers them). */
  remove(path: readonly string[], index: number): void;
}

/** Where a config command writes, and the config file it works on. */
export interface ConfigCommandIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /**
   * The plugin's section of the config file: `file` as given by the user (`--config FILE`,
   * relative to the working directory), else MCP_GATEWAY_CONFIG, else ./gateway.config.yaml.
   * Read when opened; each edit reads and writes the file again.
   */
  openConfig(file?: string): PluginConfigFile;
}

/**
 * Runs `mcp-gateway <plugin> ...` without a gateway: `args` are every word of the command line
 * but the plugin's name, in order (options given before the name included), so the command
 * parses `--config` and its own options wherever the user put them. Resolves with the exit
 * status, or nothing for 0. A thrown GatewayError is printed as `mcp-gateway: CODE: message`.
 */
export type ConfigCommandRunner = (args: readonly string[], io: ConfigCommandIo) => Promise<number | void> | number | void;
