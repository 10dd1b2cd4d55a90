import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { StderrLog } from './stderr-log.js';

export interface StdioServerOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly stderr: StderrLog;
  /** Between closing stdin and SIGTERM, and between SIGTERM and SIGKILL. */
  readonly graceMs: number;
}

/**
 * An MCP client transport to a server we spawn, like the SDK's StdioClientTransport but with
 * the child leading a process group of its own: servers are often started through `npx` or a
 * shell, whose own children a signal to the first pid would miss, and none may outlive the
 * gateway. Closing ends stdin (what a stdio server waits for), then signals the whole group.
 */
export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioServerOptions;
  readonly #buffer = new ReadBuffer();
  #child: ChildProcess | undefined;
  /** The group's id (the child's pid), kept after the child exits to clear up what it left. */
  #pid: number | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(options: StdioServerOptions) {
    this.#options = options;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  start(): Promise<void> {
    const { command, args, env, cwd, stderr } = this.#options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...getDefaultEnvironment(), ...env },
        cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.#child = child;
      this.#pid = child.pid;
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => resolve());
      // On exit, not close: children a server leaves behind (npx's, a shell's) hold its pipes
      // open, and close would wait for them.
      child.once('exit', (code, signal) => {
        this.#exit = { code, signal };
        this.#killGroup('SIGKILL');
      });
      child.once('close', () => {
        this.#child = undefined;
        this.onclose?.();
      });
      child.stdin!.on('error', (err) => this.onerror?.(err));
      child.stdout!.on('data', (chunk: Buffer) => this.#read(chunk));
      child.stderr!.on('data', (chunk: Buffer) => stderr.append(chunk));
    });
  }

  #read(chunk: Buffer): void {
    this.#buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#buffer.readMessage();
      } catch (err) {
        // A line that is not JSON-RPC: said once, and the next line is read.
        this.onerror?.(err as Error);
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || stdin.destroyed) return Promise.reject(new Error('Not connected: the server process has exited.'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = () => Promise.race([closed.then(() => true), delay(this.#options.graceMs, false, { ref: false })]);
    child.stdin?.end();
    if (await wait()) return;
    this.#killGroup('SIGTERM');
    if (await wait()) return;
    this.#killGroup('SIGKILL');
    await closed;
  }

  /** Signals the child's whole group; a group already gone is not an error. */
  #killGroup(signal: NodeJS.Signals): void {
    if (this.#pid === undefined) return;
    try {
      process.kill(-this.#pid, signal);
    } catch {
      // ESRCH: nothing of the group is left.
    }
  }
}
