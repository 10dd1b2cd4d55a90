import { randomUUID } from 'node:crypto';
import type { LoggingLevel } from '@modelcontextprotocol/server';
import type { Caller, TransportKind } from '../contract/plugin-types.js';

export interface SessionInfo {
  readonly id: string;
  readonly transport: TransportKind;
  /** Peer address for sockets, key name for HTTP; the MCP client's name once it said it. */
  peer?: string;
  client?: string;
  readonly openedAt: number;
  /** Sends a notification to this session's client. Never throws; a gone peer is ignored. */
  notify(notification: { method: string; params?: Record<string, unknown> }): void;
  /** Who the session acts for: an API key's name, else the MCP client's name, else the peer. */
  identity?: string;
  /**
   * True once the client sent `notifications/initialized`: the protocol lets a server send
   * notifications only from then on, so plugins' notifications skip sessions still opening.
   */
  ready?: boolean;
  /** The level the client set with `logging/setLevel`; until it does, every level is sent. */
  logLevel?: LoggingLevel;
}

/** A plugin's line for the end of a tool result (`ctx.sessions.resultNote`). */
export type ResultNote = (caller: Caller, tool: string) => string | undefined;

/** The open MCP sessions of every transport, for gateway_status, /health, metrics and notifications. */
export class SessionRegistry {
  readonly #sessions = new Map<string, SessionInfo>();
  readonly #closeHandlers = new Set<(id: string) => void>();
  readonly #notes: ResultNote[] = [];

  open(transport: TransportKind, peer?: string, id: string = randomUUID()): SessionInfo {
    // `notify` is replaced by the session's own sender once its SDK Server exists.
    const session: SessionInfo = { id, transport, peer, identity: peer, openedAt: Date.now(), notify: () => {} };
    this.#sessions.set(id, session);
    return session;
  }

  close(id: string): void {
    if (!this.#sessions.delete(id)) return;
    for (const handler of this.#closeHandlers) handler(id);
  }

  /** Calls `handler` with the id of every session that closes from now on; returns the unsubscribe. */
  onClose(handler: (id: string) => void): () => void {
    this.#closeHandlers.add(handler);
    return () => this.#closeHandlers.delete(handler);
  }

  /** Adds a plugin's note provider, asked after each successful tool call of a session. */
  addResultNote(note: ResultNote): void {
    this.#notes.push(note);
  }

  /** The lines the providers give for this call's result, in the order they were added. */
  resultNotes(caller: Caller, tool: string): string[] {
    const lines: string[] = [];
    for (const note of this.#notes) {
      const line = note(caller, tool);
      if (line) lines.push(line);
    }
    return lines;
  }

  get(id: string): SessionInfo | undefined {
    return this.#sessions.get(id);
  }

  /** The open sessions. */
  all(): IterableIterator<SessionInfo> {
    return this.#sessions.values();
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Open sessions counted by transport. */
  countByTransport(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const s of this.#sessions.values()) counts[s.transport] = (counts[s.transport] ?? 0) + 1;
    return counts;
  }
}
