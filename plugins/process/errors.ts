import type { ErrorSpec } from '@mcp-gateway/core';

/** The plugin's error codes; README.md lists them with their HTTP status. */
export const processErrors = {
  PROCESS_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'No process has this id (it never existed or its record was pruned). List them with process_list.',
  },
  PROCESS_NOT_ALLOWED: {
    status: 403,
    mcp: 'result',
    description: "The command is denied by the process plugin's allow/deny patterns, or shell: true is disabled (allowShell).",
  },
  PROCESS_LIMIT_REACHED: {
    status: 429,
    mcp: 'result',
    description: 'maxProcesses processes are already running; stop one (process_stop) or wait for one to exit.',
  },
  PROCESS_COMMAND_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'The command is not an executable file: not on PATH, or the given path does not exist or is not executable.',
  },
  PROCESS_CWD_NOT_FOUND: {
    status: 404,
    mcp: 'result',
    description: 'The cwd is inside the workspace but does not exist or is not a directory.',
  },
  PROCESS_EXITED: {
    status: 409,
    mcp: 'result',
    description: 'The process has already exited (with every process of its group); details carry its final status.',
  },
  PROCESS_STDIN_CLOSED: {
    status: 409,
    mcp: 'result',
    description: "The process's stdin is closed (closed earlier, by the child, or lost when the process was adopted after a restart).",
  },
  PROCESS_COMMAND_TOO_LARGE: {
    status: 413,
    mcp: 'result',
    description:
      'The command and its args together are longer than maxCommandBytes (details.field, details.limit, details.length, in bytes): put long input in a file and pass its path, or write it to stdin (process_input).',
  },
  PROCESS_SPAWN_FAILED: {
    status: 500,
    mcp: 'result',
    description: 'The operating system refused to start the process for another reason (details carry the errno code).',
  },
} as const satisfies Record<string, ErrorSpec>;

export type ProcessErrorCode = keyof typeof processErrors;
