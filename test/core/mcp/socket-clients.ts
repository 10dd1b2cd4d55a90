// Raw socket connections for the socket tests; the SDK client over a socket is test/helpers.ts' socketClient.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { SocketAddress } from '../../../core/contract/addresses.js';

/** A raw newline-delimited JSON connection, for input (or silence) no SDK client would send. */
export class RawConnection {
  readonly socket: Socket;
  /** Settles once the gateway (or the test) has closed the connection. */
  readonly ended: Promise<void>;
  readonly #lines: string[] = [];
  readonly #waiters: Array<() => void> = [];
  #buffer = '';
  closed = false;

  constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      // A long line comes in many chunks: split only once its end has come.
      if (!chunk.includes('\n')) return;
      const parts = this.#buffer.split('\n');
      this.#buffer = parts.pop()!;
      this.#lines.push(...parts.filter(Boolean));
      this.#waiters.splice(0).forEach((w) => w());
    });
    this.ended = new Promise((resolve) =>
      socket.on('close', () => {
        this.closed = true;
        this.#waiters.splice(0).forEach((w) => w());
        resolve();
      }),
    );
    socket.on('error', () => {});
  }

  static async open(address: SocketAddress): Promise<RawConnection> {
    const socket = address.kind === 'tcp' ? connect(address.port, address.host) : connect(address.path);
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    return new RawConnection(socket);
  }

  send(message: unknown): void {
    this.socket.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** Every line received so far, parsed, without waiting. */
  received(): any[] {
    return this.#lines.map((line) => JSON.parse(line));
  }

  async next(timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    while (this.#lines.length === 0) {
      if (this.closed) throw new Error('connection closed');
      if (Date.now() > deadline) throw new Error('no reply in time');
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return JSON.parse(this.#lines.shift()!);
  }

  /** `initialize` then `notifications/initialized`; with `apiKey`, the key goes in its `_meta`. */
  async initialize(apiKey?: string): Promise<void> {
    const _meta = apiKey === undefined ? undefined : { apiKey };
    this.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' }, _meta } });
    assert.equal((await this.next()).id, 0);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}
