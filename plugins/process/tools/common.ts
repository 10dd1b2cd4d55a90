// Schema pieces shared by the process tools, and what every tool group is given.
import type { JsonSchema, PluginContext } from '../../../core/index.js';
import type { ProcessConfig } from '../config.js';
import type { ProcessErrorCode } from '../errors.js';
import type { Launch, LaunchRequest } from '../launch.js';
import type { ProcessSupervisor } from '../process-supervisor.js';

export interface ProcessToolDeps {
  readonly ctx: PluginContext<ProcessConfig, ProcessErrorCode>;
  readonly supervisor: ProcessSupervisor;
  /** Checks and resolves a command (cwd, allow/deny, PATH); throws the plugin's codes. */
  readonly launch: (request: LaunchRequest) => Launch;
}

/**
 * A string without NUL bytes, which no path, argument or environment value can hold. Generic so
 * that the schemas it is part of stay literal types (the handlers' arguments are inferred).
 */
export const text = <const Extra extends JsonSchema = Record<never, never>>(maxLength: number, extra?: Extra) =>
  ({
    type: 'string',
    maxLength,
    pattern: '^[^\\u0000]*$',
    ...extra,
  }) as const satisfies JsonSchema;

export const idSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 64,
  description: 'The process id from process_start, process_run or process_list (e.g. "proc-12").',
} as const;

/** The arguments process_start and process_run share. */
export const commandProperties = {
  command: text(4096, {
    minLength: 1,
    description:
      'The program to run: a name looked up on PATH (e.g. "npm", "node") or a path. Without shell: true it runs directly, so no pipes, globs or && — or the whole shell line when shell is true.',
  }),
  args: {
    type: 'array',
    items: text(32_768),
    maxItems: 1000,
    default: [],
    description: 'Arguments, passed as they are (no shell quoting needed).',
  },
  cwd: text(4096, { minLength: 1, description: 'Working directory inside the workspace (relative to its root); default: the root.' }),
  env: {
    type: 'object',
    propertyNames: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
    additionalProperties: text(32_768),
    maxProperties: 200,
    default: {},
    description: "Variables added to (or overriding) the gateway's environment.",
  },
  shell: {
    type: 'boolean',
    default: false,
    description: "Run command (with args appended, quoted) through the user's shell ($SHELL -c), for pipes, globs and &&. Refused (PROCESS_NOT_ALLOWED) unless the gateway's process config sets allowShell: true.",
  },
} as const;
