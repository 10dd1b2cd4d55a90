// The API other plugins get (api.ts): a child started and watched by the same supervisor as
// process_start's, with a handle to talk to it, read its recent output and stop it.
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ManagedProcessHandle, ProcessApi, ProcessExit } from './api.js';
import type { ProcessContext } from './declaration.js';
import type { RaiseError } from './declaration.js';
import { prepareLaunch } from './launch.js';
import { lastOutputMs, type Managed } from './managed-process.js';
import { toView, type ProcessRow } from './process-store.js';
import type { ProcessSupervisor } from './process-supervisor.js';

export interface ProcessApiDeps {
  readonly ctx: ProcessContext;
  readonly supervisor: ProcessSupervisor;
  readonly error: RaiseError;
}

const NEVER = new AbortController().signal;

export function createProcessApi({ ctx, supervisor, error }: ProcessApiDeps): ProcessApi {
  // ctx.dataDir is <gateway dataDir>/plugins/process: the gateway's data folder is two up.
  const dataRoot = realOrSelf(resolve(ctx.dataDir, '..', '..'));
  const resolveCwd = (cwd: string): string => {
    if (isAbsolute(cwd)) {
      const real = realOrSelf(cwd);
      if (isInside(real, dataRoot)) return real;
    }
    return ctx.workspace.resolve(cwd);
  };

  return {
    async start(request) {
      const launch = prepareLaunch(
        { command: request.command, args: request.args ?? [], cwd: request.cwd, env: request.env ?? {}, shell: false },
        { config: ctx.config, resolveCwd, error },
      );
      const managed = await supervisor.spawn(launch, { kind: 'plugin', tags: { label: request.label }, ports: [], stdin: 'pipe' });
      return handleOf(managed, request.label, supervisor, ctx.config.defaultGraceMs);
    },
  };
}

function handleOf(m: Managed, label: string, supervisor: ProcessSupervisor, defaultGraceMs: number): ManagedProcessHandle {
  const exited = m.exited.then(() => exitOf(supervisor, m.id));
  return {
    id: m.id,
    pid: m.identity.pid,
    label,
    startedMs: m.startedMs,
    get running() {
      return m.running;
    },
    async write(input, signal = NEVER) {
      await supervisor.write(m.id, input, false, signal);
    },
    tail(stream, maxBytes) {
      const log = m.logs[stream];
      const { start, end } = log.extent();
      const text = log.read(Math.max(start, end - maxBytes), maxBytes, !m.running).text;
      // The window may start inside a multi-byte character: its decoded remains go.
      return text.replace(/^\uFFFD+/, '');
    },
    lastOutputMs: () => lastOutputMs(m),
    exited,
    onExit(listener) {
      let subscribed = true;
      void exited.then((exit) => {
        if (subscribed) listener(exit);
      });
      return () => {
        subscribed = false;
      };
    },
    async stop(graceMs = defaultGraceMs) {
      await supervisor.terminate([m], graceMs);
      return exited;
    },
  };
}

/** The exit as recorded; `unknown` when the record says nothing (the gateway closed first, or it was pruned). */
function exitOf(supervisor: ProcessSupervisor, id: string): ProcessExit {
  let row: ProcessRow;
  try {
    row = supervisor.row(id);
  } catch {
    return { status: 'unknown', exit_code: null, signal: null };
  }
  const view = toView(row);
  if (view.status === 'running') return { status: 'unknown', exit_code: null, signal: null };
  return { status: view.status, exit_code: view.exit_code, signal: view.signal };
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function isInside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}
