// A worker's argv and environment. The command comes from the config alone: a tool call picks
// a kind, and the only values it can bring in (names, ids, paths) land inside single argv
// elements — no shell ever sees them, and the program itself is never substituted.
import type { ListeningAddress } from '@mcp-gateway/core';

export interface WorkerValues {
  readonly agent: string;
  readonly taskId: number | null;
  /** The worker's directory: its worktree, or the workspace root. */
  readonly dir: string;
}

const PLACEHOLDERS = /\{(agent|task_id|worktree)\}/g;

/** `command` with {agent}, {task_id} and {worktree} replaced in its arguments; other braces stay. */
export function workerArgv(command: readonly string[], values: WorkerValues): { command: string; args: string[] } {
  const value = { agent: values.agent, task_id: values.taskId === null ? '' : String(values.taskId), worktree: values.dir };
  const [program, ...args] = command;
  return { command: program!, args: args.map((arg) => arg.replace(PLACEHOLDERS, (_, name: keyof typeof value) => value[name])) };
}

/** What a worker finds in its environment: who it is, what it works on, how to reach the gateway. */
export function workerEnv(kindEnv: Readonly<Record<string, string>>, values: WorkerValues, listening: readonly ListeningAddress[]): Record<string, string> {
  const env: Record<string, string> = {
    ...kindEnv,
    COLLAB_AGENT: values.agent,
    COLLAB_TASK_ID: values.taskId === null ? '' : String(values.taskId),
    COLLAB_WORKTREE: values.dir,
  };
  for (const address of listening) {
    if (address.kind === 'tcp') env.MCP_GATEWAY_TCP ??= hostPort(address.host, address.port);
    else if (address.kind === 'unix') env.MCP_GATEWAY_SOCKET ??= address.path;
    else env.MCP_GATEWAY_URL ??= `http://${hostPort(address.host, address.port)}/mcp`;
  }
  return env;
}

/** host:port a local client can dial: a wildcard address means this machine. */
function hostPort(host: string, port: number): string {
  const local = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return local.includes(':') ? `[${local}]:${port}` : `${local}:${port}`;
}
