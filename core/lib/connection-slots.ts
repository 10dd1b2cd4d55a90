import type { Socket } from 'node:net';

export interface SlotLimits {
  /** Open connections at most. */
  readonly total: number;
  /** Open connections at most per group (a client address, see http/client-address.ts); no such cap without it. */
  readonly perGroup?: number;
}

/** A new connection's slot, with the waiting connection it displaced (for the caller to close), or why there is none. */
export type SlotDecision = { readonly ok: true; readonly displaced?: Socket } | { readonly ok: false; readonly full: 'total' | 'group' };

/**
 * The open connections of one listener, counted in all and per group, each either
 * authenticated (its caller showed a valid key, or keys are off) or still waiting to.
 *
 * A connection arriving when a cap is reached takes the slot of the oldest connection still
 * waiting (in its own group when that group's cap is the one reached); it is refused only
 * when every connection in the way has authenticated. So connections that never show a key,
 * however many and however often renewed, cannot keep a keyed caller out, and an
 * authenticated connection is never closed to make room. A waiting connection has the time
 * it takes newer ones to fill the cap to authenticate: the next request on a new connection,
 * which clients send at once, is enough.
 */
export class ConnectionSlots {
  readonly #limits: SlotLimits;
  readonly #groupOf = new Map<Socket, string>();
  readonly #perGroup = new Map<string, number>();
  /** Connections that have not authenticated, oldest first (a Set iterates in insertion order). */
  readonly #waiting = new Set<Socket>();

  constructor(limits: SlotLimits) {
    this.#limits = limits;
  }

  /** Gives `socket` a slot in `group`, waiting to authenticate; it is released when the socket closes. */
  take(socket: Socket, group = ''): SlotDecision {
    const totalFull = this.#groupOf.size >= this.#limits.total;
    const groupFull = this.#limits.perGroup !== undefined && (this.#perGroup.get(group) ?? 0) >= this.#limits.perGroup;
    let displaced: Socket | undefined;
    if (totalFull || groupFull) {
      displaced = this.#oldestWaiting(groupFull ? group : undefined);
      if (!displaced) return { ok: false, full: groupFull ? 'group' : 'total' };
      this.release(displaced);
    }
    this.#groupOf.set(socket, group);
    this.#perGroup.set(group, (this.#perGroup.get(group) ?? 0) + 1);
    this.#waiting.add(socket);
    socket.once('close', () => this.release(socket));
    return { ok: true, displaced };
  }

  /** `socket` showed a valid key (or needs none): it keeps its slot from now on. */
  authenticated(socket: Socket): void {
    this.#waiting.delete(socket);
  }

  /** `socket` may be displaced again (an upgraded connection that ended its side, say). */
  waiting(socket: Socket): void {
    if (this.#groupOf.has(socket)) this.#waiting.add(socket);
  }

  /** Frees `socket`'s slot; once only, whether displaced or closed. */
  release(socket: Socket): void {
    const group = this.#groupOf.get(socket);
    if (group === undefined) return;
    this.#groupOf.delete(socket);
    this.#waiting.delete(socket);
    const left = this.#perGroup.get(group)! - 1;
    if (left === 0) this.#perGroup.delete(group);
    else this.#perGroup.set(group, left);
  }

  #oldestWaiting(group: string | undefined): Socket | undefined {
    for (const socket of this.#waiting) if (group === undefined || this.#groupOf.get(socket) === group) return socket;
    return undefined;
  }
}
