// Every process this gateway started or adopted: spawning, exit bookkeeping, signals to
// whole process groups, output polling, and the shutdown policy (stop or keep).
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Logger, PluginEvents } from '@mcp-gateway/core';
import type { ProcessConfig } from './config.js';
import type { RaiseError } from './declaration.js';
import type { Launch } from './launch.js';
import { closeWriters, createManaged, settleOutput, type Managed } from './managed-process.js';
import { OutputWatcher } from './output-watcher.js';
import { groupAlive, groupMembers, identify, isAlive, signalGroup, sleep, waitFor, type ProcessIdentity } from './process-group.js';
import { endGroup, provenMembers, toRecords } from './orphan-groups.js';
import { idOf, lingeringOf, mayOutliveGateway, seqOf, toView, type ListFilter, type ProcessKind, type ProcessRow, type ProcessStore, type ProcessView } from './process-store.js';
import { spawnChild, writeInput } from './spawn-child.js';
import type { StreamName } from './output-log.js';

export type { Managed } from './managed-process.js';

export interface SupervisorDeps {
  readonly store: ProcessStore;
  readonly config: ProcessConfig;
  readonly log: Logger;
  readonly events: PluginEvents;
  readonly error: RaiseError;
  /** Where a process's log folder goes, given its id. */
  readonly logDir: (id: string) => string;
}

export interface SpawnOptions {
  readonly kind: ProcessKind;
  readonly tags: Readonly<Record<string, string>>;
  readonly ports: readonly number[];
  readonly stdin: 'pipe' | 'ignore';
}

/** After SIGKILL, how long to wait for the kernel to finish the group. */
const KILL_WAIT_MS = 3000;

export class ProcessSupervisor {
  readonly #deps: SupervisorDeps;
  readonly #managed = new Map<string, Managed>();
  readonly #watcher: OutputWatcher;
  readonly #timer: NodeJS.Timeout;
  #reserved = 0;
  #closed = false;
  /** Leftover groups being stopped at boot (onShutdown: stop); close() waits for them. */
  readonly #reclaiming: Promise<void>[] = [];

  constructor(deps: SupervisorDeps) {
    this.#deps = deps;
    this.#watcher = new OutputWatcher((event) => deps.events.publish('process.output', event));
    this.#timer = setInterval(() => this.#tick(), deps.config.pollIntervalMs);
    this.#timer.unref();
  }

  /**
   * Picks up what an earlier gateway left running (onShutdown: keep, or a crash): a live
   * started process is adopted, a live process_run or plugin child (whose owner is gone) is killed,
   * and a dead one is marked `unknown` (its exit status went unseen).
   */
  adopt(): void {
    for (const row of this.#deps.store.live()) {
      try {
        this.#adoptOne(row);
      } catch (err) {
        this.#deps.log.error({ err, id: idOf(row.seq) }, 'could not check a process left by an earlier gateway');
      }
    }
    for (const row of this.#deps.store.lingering()) {
      try {
        this.#reclaimGroup(row);
      } catch (err) {
        this.#deps.log.error({ err, id: idOf(row.seq) }, 'could not check a process group left by an earlier gateway');
      }
    }
  }

  /**
   * A group whose leader had exited while members still ran: with onShutdown: stop they are
   * stopped now (their gateway could not); with keep they stay, listed as `lingering_pids`.
   */
  #reclaimGroup(row: ProcessRow): void {
    const { store, config, log } = this.#deps;
    const id = idOf(row.seq);
    const members = row.pid === null ? [] : provenMembers(row.pid, lingeringOf(row), row.boot_id);
    if (members.length === 0) return store.setLingering(row.seq, null);
    const pids = members.map((m) => m.pid);
    if (config.onShutdown === 'keep') {
      store.setLingering(row.seq, toRecords(members));
      return log.info({ id, pids }, 'left running the rest of a process group an earlier gateway kept (onShutdown: keep)');
    }
    log.info({ id, pids }, 'stopping the rest of a process group an earlier gateway left running');
    const ending = endGroup(row.pid!, toRecords(members), row.boot_id, config.shutdownGraceMs).then((gone) => {
      if (gone) store.setLingering(row.seq, null);
      else log.error({ id, pids }, 'the rest of a process group survived SIGKILL');
    });
    this.#reclaiming.push(ending.catch((err: unknown) => log.error({ err, id }, 'stopping a leftover process group failed')));
  }

  #adoptOne(row: ProcessRow): void {
    const identity = { pid: row.pid ?? 0, startTicks: row.start_ticks, bootId: row.boot_id };
    if (row.pid === null || !isAlive(identity)) {
      this.#deps.store.finish(row.seq, 'unknown', null, null);
    } else if (!mayOutliveGateway(row.kind)) {
      signalGroup(row.pid, 'SIGKILL');
      this.#deps.store.finish(row.seq, 'killed', null, 'SIGKILL');
    } else {
      this.#track(row, identity);
      this.#deps.log.info({ id: idOf(row.seq), pid: row.pid }, 'adopted a process left running by an earlier gateway');
    }
  }

  get runningCount(): number {
    let count = this.#reserved;
    for (const m of this.#managed.values()) if (m.running) count += 1;
    return count;
  }

  async spawn(launch: Launch, options: SpawnOptions): Promise<Managed> {
    const { store, config, error } = this.#deps;
    if (this.runningCount >= config.maxProcesses) {
      throw error('PROCESS_LIMIT_REACHED', `${config.maxProcesses} processes are already running (maxProcesses); stop one with process_stop or wait for one to exit.`, {
        maxProcesses: config.maxProcesses,
      });
    }
    this.#reserved += 1;
    let row: ProcessRow | undefined;
    try {
      row = store.insert({ ...options, command: launch.command, args: launch.args, cwd: launch.cwd, shell: launch.shell, logDir: this.#deps.logDir });
      const { child, output } = await spawnChild(launch, row.log_dir, options.stdin, error);
      // No await from here on: the exit listener must be on before the next tick.
      const identity = identify(child.pid!);
      store.spawned(row.seq, identity);
      const managed = this.#track(row, identity, child, output);
      child.on('error', (err) => this.#deps.log.warn({ err, id: managed.id }, 'child process error'));
      child.stdin?.on('error', (err) => this.#deps.log.debug({ err, id: managed.id }, 'stdin closed by the child'));
      // What it printed just before exiting may still be in its pipes: record the exit after it.
      child.once('exit', (code, signal) => void settleOutput(managed).then(() => this.#onExit(managed, code, signal)));
      this.#deps.events.publish('process.start', {
        id: managed.id,
        kind: options.kind,
        pid: identity.pid,
        command: launch.command,
        args: launch.args,
        cwd: launch.cwd,
        tags: options.tags,
        ports: options.ports,
      });
      this.#prune();
      return managed;
    } catch (err) {
      if (row) {
        store.remove(row.seq);
        rmSync(row.log_dir, { recursive: true, force: true });
      }
      throw err;
    } finally {
      this.#reserved -= 1;
    }
  }

  /** The record of `id`, reconciled with the system. Throws PROCESS_NOT_FOUND. */
  row(id: string): ProcessRow {
    const seq = seqOf(id);
    const row = seq === undefined ? undefined : this.#deps.store.get(seq);
    if (!row) {
      throw this.#deps.error('PROCESS_NOT_FOUND', `No process has id "${id}". List them with process_list.`, { id });
    }
    return this.reconcile(row);
  }

  /**
   * The record of `id` for a process tool: children another plugin started through the API
   * (kind `plugin`) are that plugin's to drive — its own rules (collab: only a worker's driver)
   * would be bypassed otherwise — so the tools do not see them (PROCESS_NOT_FOUND, as unknown).
   */
  toolRow(id: string): ProcessRow {
    const row = this.row(id);
    if (row.kind === 'plugin') {
      throw this.#deps.error('PROCESS_NOT_FOUND', `No process has id "${id}". List them with process_list.`, { id });
    }
    return row;
  }

  /** process_list: rows from the store, each running one probed. */
  list(filter: ListFilter): ProcessRow[] {
    const rows = this.#deps.store.list(filter).map((row) => this.reconcile(row));
    return filter.runningOnly ? rows.filter((row) => row.status === 'running' || row.status === 'starting') : rows;
  }

  managed(id: string): Managed | undefined {
    return this.#managed.get(id);
  }

  /**
   * A row that says running but is no process of ours (another gateway's, or left over) is
   * probed: if its pid is gone or now someone else's, it becomes `unknown`.
   */
  reconcile(row: ProcessRow): ProcessRow {
    // A `starting` row is a spawn in flight (a stale one is settled by adopt() at boot).
    if (row.status !== 'running' || this.#managed.has(idOf(row.seq))) return row;
    if (row.pid !== null && isAlive({ pid: row.pid, startTicks: row.start_ticks, bootId: row.boot_id })) return row;
    this.#deps.store.finish(row.seq, 'unknown', null, null);
    return this.#deps.store.get(row.seq) ?? row;
  }

  /** SIGTERM to the group, `graceMs` for it to go, then SIGKILL. Throws PROCESS_EXITED. */
  async stop(id: string, graceMs: number): Promise<ProcessView> {
    await this.terminate([this.#active(id)], graceMs);
    return toView(this.row(id));
  }

  /** SIGKILL to the whole group at once. Throws PROCESS_EXITED. */
  async kill(id: string): Promise<ProcessView> {
    await this.terminate([this.#active(id)], 0);
    return toView(this.row(id));
  }

  /** Ends the groups of `list`: SIGTERM, then SIGKILL after `graceMs` (at once for 0). */
  async terminate(list: readonly Managed[], graceMs: number): Promise<void> {
    const targets = list.filter((m) => this.#probe(m));
    if (targets.length === 0) return;
    const gone = () => targets.every((m) => !this.#probe(m));
    if (graceMs > 0) {
      for (const m of targets) this.#signal(m, 'SIGTERM');
      if (await waitFor(gone, graceMs)) return this.#recorded(targets);
    }
    for (const m of targets) if (this.#probe(m)) this.#signal(m, 'SIGKILL');
    if (!(await waitFor(gone, KILL_WAIT_MS))) {
      this.#deps.log.error({ ids: targets.filter((m) => this.#probe(m)).map((m) => m.id) }, 'processes survived SIGKILL');
    }
    return this.#recorded(targets);
  }

  /** Writes to the child's stdin. Throws PROCESS_EXITED, PROCESS_STDIN_CLOSED. */
  async write(id: string, input: string, close: boolean, signal: AbortSignal): Promise<{ bytes: number; stdin_open: boolean }> {
    // The leader owns the stdin: once it exited, a group that lingers has none to write to.
    const m = this.#active(id, true);
    const stdin = m.child?.stdin;
    if (!stdin || !stdin.writable) {
      throw this.#deps.error(
        'PROCESS_STDIN_CLOSED',
        m.child ? `The stdin of process ${id} is closed.` : `Process ${id} was adopted after a gateway restart; its stdin was lost with the old gateway.`,
        { id },
      );
    }
    await writeInput(stdin, input, signal, (cause) =>
      this.#deps.error('PROCESS_STDIN_CLOSED', `The stdin of process ${id} was closed by the child (${cause}).`, { id }),
    );
    if (close) stdin.end();
    return { bytes: Buffer.byteLength(input), stdin_open: !close && stdin.writable };
  }

  /** Shutdown: stops every process (onShutdown: stop) or only process_run and plugin children (keep). */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await Promise.all(this.#reclaiming);
    const active = [...this.#managed.values()].filter((m) => this.#probe(m));
    const stopping = this.#deps.config.onShutdown === 'stop' ? active : active.filter((m) => !mayOutliveGateway(m.kind));
    await this.terminate(stopping, this.#deps.config.shutdownGraceMs);
    for (const m of stopping) if (!m.running && !this.#probe(m)) this.#deps.store.setLingering(m.seq, null);
    for (const m of this.#managed.values()) {
      if (!m.child || !m.running) continue;
      // Kept: let it outlive this gateway. Its stdin ends as it would when the gateway exits.
      m.child.removeAllListeners('exit');
      m.child.stdin?.destroy();
      m.child.unref();
      this.#deps.log.info({ id: m.id, pid: m.identity.pid }, 'process left running (onShutdown: keep)');
    }
    this.#closed = true;
    // Kept processes hold their pipes' read ends: what they print waits there for the next gateway.
    await Promise.all([...this.#managed.values()].map((m) => closeWriters(m)));
    // Nothing more will be recorded: release whoever still waits for an exit.
    for (const m of this.#managed.values()) m.markExited();
    this.#managed.clear();
    this.#deps.store.close();
  }

  /** The managed process `id` while its group (or only its leader) runs; else PROCESS_EXITED. */
  #active(id: string, leaderOnly = false): Managed {
    const row = this.row(id);
    const m = this.#managed.get(id);
    if (m && this.#probe(m) && (m.running || !leaderOnly)) return m;
    const view = toView(this.#deps.store.get(row.seq) ?? row);
    const how = [view.status, view.exit_code === null ? '' : `exit code ${view.exit_code}`, view.signal ?? ''].filter(Boolean).join(', ');
    throw this.#deps.error('PROCESS_EXITED', `Process ${id} already exited (${how}); start it again with process_start if needed.`, view);
  }

  #track(row: ProcessRow, identity: ProcessIdentity, child?: ChildProcess, output?: Record<StreamName, number>): Managed {
    const id = idOf(row.seq);
    const managed = createManaged(row, identity, {
      child,
      output,
      maxOutputBytes: this.#deps.config.maxOutputBytes,
      onRotate: (stream, start) => this.#deps.store.setOutputStart(row.seq, stream, start),
      onWriteError: (stream, err) => this.#deps.log.error({ err, id, stream }, 'writing a process log failed; its output is dropped from now on'),
    });
    this.#managed.set(managed.id, managed);
    this.#watcher.watch(managed, child === undefined);
    return managed;
  }

  #onExit(m: Managed, code: number | null, signal: NodeJS.Signals | null, status?: 'unknown' | 'killed'): void {
    if (!m.running || this.#closed) return;
    m.running = false;
    try {
      this.#watcher.poll(m, true);
      const final = status ?? (signal ? 'killed' : code === 0 ? 'exited' : 'failed');
      this.#deps.store.finish(m.seq, final, code, signal);
      // Members left in the group are recorded, so that a next gateway can find them.
      if (m.child) this.#recordLingering(m);
      this.#deps.events.publish('process.exit', {
        id: m.id,
        kind: m.kind,
        pid: m.identity.pid,
        status: final,
        exit_code: code,
        signal,
        duration_ms: Date.now() - m.startedMs,
      });
    } catch (err) {
      this.#deps.log.error({ err, id: m.id }, 'recording a process exit failed');
    } finally {
      m.markExited();
    }
  }

  #recordLingering(m: Managed): void {
    this.#deps.store.setLingering(m.seq, toRecords(groupMembers(m.identity.pid)));
  }

  /** Whether `m` (leader or group) is still alive; notices an adopted leader's end. */
  #probe(m: Managed): boolean {
    if (m.running && !m.child && !isAlive(m.identity)) {
      this.#onExit(m, null, m.lastSignal ?? null, m.lastSignal ? 'killed' : 'unknown');
    }
    // Only our own child's group is probed after its leader ended: the kernel does not reuse
    // a pid while a group still carries it, but an adopted group's id may be stale.
    return m.running || (m.child !== undefined && groupAlive(m.identity.pid));
  }

  #signal(m: Managed, signal: NodeJS.Signals): void {
    m.lastSignal = signal;
    try {
      signalGroup(m.identity.pid, signal);
    } catch (err) {
      this.#deps.log.warn({ err, id: m.id, signal }, 'signalling a process group failed');
    }
  }

  /** Waits (briefly) until the exit events of `targets` are recorded. */
  async #recorded(targets: readonly Managed[]): Promise<void> {
    await Promise.race([Promise.all(targets.map((m) => m.exited)), sleep(1000)]);
  }

  #tick(): void {
    for (const m of this.#managed.values()) {
      try {
        if (this.#probe(m)) {
          if (m.running) this.#watcher.poll(m, false);
          // A group that outlived its leader: members it starts later are recorded too.
          else this.#recordLingering(m);
        } else {
          if (m.child) this.#deps.store.setLingering(m.seq, null);
          this.#managed.delete(m.id);
          this.#watcher.forget(m.id);
          // The group is gone; only a process that left it could still hold a pipe open.
          void settleOutput(m).then(() => closeWriters(m));
        }
      } catch (err) {
        this.#deps.log.error({ err, id: m.id }, 'polling a process failed');
      }
    }
  }

  #prune(): void {
    for (const dir of this.#deps.store.prune(this.#deps.config.retainExited)) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
