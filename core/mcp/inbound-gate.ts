import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/** One look at a message before the SDK's: true when the stage took it (answered it, or will). */
export type GateStage = (message: JSONRPCMessage) => boolean;

/** What becomes of a message the SDK sends, on its way out (the same message when nothing). */
export type OutboundStage = (message: JSONRPCMessage) => JSONRPCMessage;

/**
 * The one place where the gateway sees an MCP session's messages before the SDK's Server
 * does: the transport the Server connects to, wrapped around the real one (stdio, a socket,
 * Streamable HTTP, an in-memory pair). Each message passes the stages in order; the first
 * that takes it ends its way, and what none takes goes on to the Server. What the Server sends
 * passes `outbound` first. Everything else (closing, the session id) is the real transport's.
 *
 * Installed before `connect`, so that nothing replaces a handler the SDK set: the SDK sets
 * this object's `onmessage`, `onclose` and `onerror`, and the real transport's call them.
 * Handlers the real transport had already (Streamable HTTP's `onclose`) still run, first.
 */
export class InboundGate implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #stages: readonly GateStage[];
  readonly #outbound: OutboundStage;

  constructor(inner: Transport, stages: readonly GateStage[], outbound: OutboundStage = (message) => message) {
    this.#inner = inner;
    this.#stages = stages;
    this.#outbound = outbound;
    const { onclose, onerror } = inner;
    inner.onclose = () => {
      onclose?.();
      this.onclose?.();
    };
    inner.onerror = (error) => {
      onerror?.(error);
      this.onerror?.(error);
    };
    inner.onmessage = (message, extra) => {
      for (const stage of this.#stages) if (stage(message)) return;
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.#inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(this.#outbound(message), options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
