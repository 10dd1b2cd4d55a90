import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { LineReader } from './line-reader.js';
import type { MessageTooLargeError } from './message-too-large.js';
import type { StderrLog } from './stderr-log.js';

export interface StdioServerOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  readonly stderr: StderrLog;
  /** Between closing stdin and SIGTERM, and between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  /** The longest line (message) read from the server. */
  readonly maxMessageBytes: number;
}

/**
 * An MCP client transport to a server we spawn, like the SDK's StdioClientTransport but with
 * the child leading a process group of its own: servers are often started through `npx` or a
 * shell, whose own children a signal to the first pid would miss, and none may outlive the
 * gateway. Closing ends stdin (what a stdio server waits for), then signals the whole group.
 * A line longer than maxMessageBytes cannot be skipped safely (whose answer it was is unknown
 * until its end, which may never come): the server is stopped, and `failure` says why.
 */
export class StdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioServerOptions;
  readonly #lines: LineReader;
  #child: ChildProcess | undefined;
  /** The group's id (the child's pid), kept after the child exits to clear up what it left. */
  #pid: number | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #failure: MessageTooLargeError | undefined;

  constructor(options: StdioServerOptions) {
    this.#options = options;
    this.#lines = new LineReader(options.maxMessageBytes);
  }

  /** Why the gateway stopped the server itself, when it did (a message over the bound). */
  get failure(): MessageTooLargeError | undefined {
    return this.#failure;
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
    if (this.#failure) return;
    const { lines, tooLarge } = this.#lines.push(chunk);
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line.toString('utf8').replace(/\r$/, ''));
      } catch (err) {
        // A line that is not JSON-RPC: said once, and the next line is read.
        this.onerror?.(err as Error);
        continue;
      }
      this.onmessage?.(message);
    }
    if (tooLarge) this.#abandon(tooLarge);
  }

  /**
   * Stops reading and stops the server; its exit closes the transport as any exit does, and
   * the supervisor restarts it. Its stdout is destroyed first, so a server still writing gets
   * EPIPE instead of the gateway reading on.
   */
  #abandon(failure: MessageTooLargeError): void {
    this.#failure = failure;
    this.#child?.stdout?.destroy();
    this.onerror?.(failure);
    const child = this.#child;
    if (!child) return;
    this.#killGroup('SIGTERM');
    void this.#stop(child, ['SIGKILL']);
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
    child.stdin?.end();
    await this.#stop(child, ['SIGTERM', 'SIGKILL']);
  }

  /** Resolves once `child` has closed, sending its group each of `signals` in turn after graceMs without it. */
  async #stop(child: ChildProcess, signals: readonly NodeJS.Signals[]): Promise<void> {
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    const wait = () => Promise.race([closed.then(() => true), delay(this.#options.graceMs, false, { ref: false })]);
    for (const signal of signals) {
      if (await wait()) return;
      this.#killGroup(signal);
    }
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
