// Schema pieces shared by the process tools, and what every tool group is given.
import type { JsonSchema } from '@mcp-gateway/core';
import type { ProcessContext } from '../declaration.js';
import type { Launch, LaunchRequest } from '../launch.js';
import type { ProcessSupervisor } from '../process-supervisor.js';

export interface ProcessToolDeps {
  readonly ctx: ProcessContext;
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
  description: 'The proc-N id, not the pid.',
} as const;

/** The arguments process_start and process_run share. */
export const commandProperties = {
  command: text(4096, {
    minLength: 1,
    description: 'A name on PATH or a path, run without a shell (no pipes, globs or &&); with shell: a whole shell line.',
  }),
  args: {
    type: 'array',
    items: text(32_768),
    maxItems: 1000,
    default: [],
    description: 'Passed as they are: no shell quoting.',
  },
  cwd: text(4096, { minLength: 1, description: 'Relative to the workspace root, the default.' }),
  env: {
    type: 'object',
    propertyNames: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,127}$' },
    additionalProperties: text(32_768),
    maxProperties: 200,
    default: {},
    description: "Added to the gateway's environment.",
  },
  shell: {
    type: 'boolean',
    default: false,
    // Said before the call: most gateways refuse shell lines, and a model should not build one in vain.
    description: 'Run command through $SHELL -c, args appended quoted. Refused unless the gateway sets allowShell.',
  },
} as const;
