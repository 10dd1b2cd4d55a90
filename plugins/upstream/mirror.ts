import { isGatewayError } from '@mcp-gateway/core';
import type { Conflict, NameClaims } from './name-claims.js';

/** One entry of an upstream's list as the gateway will offer it. */
export interface MirrorEntry {
  /** The server's own name or URI for it. */
  readonly upstream: string;
  /** The gateway's name (or URI) for it. */
  readonly name: string;
  /** Changes when anything the gateway lists of it changes: the entry is then replaced. */
  readonly fingerprint: string;
  /** Adds it to the gateway's catalog (through ctx.live); returns its removal. Throws on a clash. */
  add(): () => void;
  /** Set when the gateway cannot offer it at all: it is left out, with this reason in the status. */
  readonly unusable?: string;
}

interface Mirrored {
  readonly name: string;
  readonly fingerprint: string;
  readonly remove: () => void;
}

/**
 * Keeps the gateway's entries of one kind in step with one server's list: after each listing,
 * entries gone upstream are removed, changed ones replaced, new ones added. Each add and
 * removal goes through ctx.live, which announces list_changed to the gateway's clients. An
 * entry that cannot be added (its name clashes, its schema does not compile) is left out and
 * kept as a conflict for status; the others are offered.
 */
export class Mirror {
  readonly #kind: Conflict['kind'];
  readonly #source: string;
  readonly #claims: NameClaims;
  readonly #current = new Map<string, Mirrored>();
  #conflicts: Conflict[] = [];

  constructor(kind: Conflict['kind'], source: string, claims: NameClaims) {
    this.#kind = kind;
    this.#source = source;
    this.#claims = claims;
  }

  get size(): number {
    return this.#current.size;
  }

  get conflicts(): readonly Conflict[] {
    return this.#conflicts;
  }

  /** The gateway's names of what is mirrored now. */
  names(): string[] {
    return [...this.#current.values()].map((m) => m.name);
  }

  sync(entries: readonly MirrorEntry[]): void {
    // Entries left out never replace one offered under the same name (a refused tool is named by its label).
    const wanted = new Map(entries.filter((e) => e.unusable === undefined).map((e) => [e.upstream, e]));
    for (const [upstream, mirrored] of this.#current) {
      // The fingerprint holds the gateway's name too: an entry renamed is replaced.
      if (wanted.get(upstream)?.fingerprint !== mirrored.fingerprint) this.#drop(upstream, mirrored);
    }
    const conflicts: Conflict[] = [];
    for (const entry of entries) {
      const source = this.#sourceOf(entry.upstream);
      if (entry.unusable !== undefined) {
        conflicts.push(this.#conflict(entry, `${source}: ${entry.unusable}`));
        continue;
      }
      if (this.#current.has(entry.upstream)) continue;
      const holder = this.#claims.claim(this.#kind, entry.name, source);
      if (holder !== undefined) {
        conflicts.push(this.#conflict(entry, `the ${this.#kind} name "${entry.name}" of ${source} clashes with ${holder}; rename one with prefix, or leave one out with exclude`));
        continue;
      }
      try {
        this.#current.set(entry.upstream, { name: entry.name, fingerprint: entry.fingerprint, remove: entry.add() });
      } catch (err) {
        this.#claims.release(this.#kind, entry.name, source);
        if (!isGatewayError(err)) throw err;
        conflicts.push(this.#conflict(entry, `${source}: ${err.message}`));
      }
    }
    this.#conflicts = conflicts;
  }

  /** Removes every entry (the server was withdrawn while it is down). */
  clear(): void {
    for (const [upstream, mirrored] of this.#current) this.#drop(upstream, mirrored);
    this.#conflicts = [];
  }

  #drop(upstream: string, mirrored: Mirrored): void {
    this.#current.delete(upstream);
    mirrored.remove();
    this.#claims.release(this.#kind, mirrored.name, this.#sourceOf(upstream));
  }

  #conflict(entry: MirrorEntry, reason: string): Conflict {
    return { kind: this.#kind, upstream: entry.upstream, name: entry.name, reason };
  }

  /** How status and clash messages name one entry: its server, and its name there. */
  #sourceOf(upstream: string): string {
    return `${this.#source} ("${upstream}")`;
  }
}
