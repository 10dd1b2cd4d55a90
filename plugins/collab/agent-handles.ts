// A signed agent handle: what a caller without a session (a 2026-07-28 MCP client, a REST
// script) gets from collab_join and passes as `agent` in later calls, in place of the session
// a 2025 client binds. It names the agent and when it expires, and is signed for the caller
// that joined: another key or client cannot use it, and nobody can make one without the
// gateway. Like a session's join, it binds and proves no more than the join did: any caller
// may join as an agent no key is pinned to (keyAgents is what keeps an agent to one key).
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Caller } from '@mcp-gateway/core';
import type { CollabContext } from './context.js';
import { AGENT_NAME_PATTERN } from './model.js';

/** An agent name without its anchors. */
const NAME = AGENT_NAME_PATTERN.slice(1, -1);
/** What follows the name in a handle: `.<expiry, seconds since 1970 in base 36>.<HMAC-SHA256, base64url>`. */
const SIGNED = '\\.([0-9a-z]{1,11})\\.([A-Za-z0-9_-]{43})';
const HANDLE = new RegExp(`^(${NAME})${SIGNED}$`);
/** The JSON Schema pattern of an agent name or a handle: what `agent` takes. */
export const AGENT_OR_HANDLE_PATTERN = `^${NAME}(${SIGNED.replaceAll('(', '(?:')})?$`;

export interface MintedHandle {
  readonly handle: string;
  readonly expiresAt: string;
}

export class AgentHandles {
  readonly #ctx: CollabContext;
  readonly #key: string;
  readonly #ttlSeconds: number;

  private constructor(ctx: CollabContext, key: string) {
    this.#ctx = ctx;
    this.#key = key;
    this.#ttlSeconds = ctx.config.handleTtlSeconds;
  }

  /** With the key every gateway on this store shares, so that any of them takes a handle another made. */
  static async open(ctx: CollabContext): Promise<AgentHandles> {
    return new AgentHandles(ctx, await ctx.store.secret('agent-handles'));
  }

  /** Whether `value` has the form of a handle (else it is an agent's name). */
  static isHandle(value: string): boolean {
    return value.includes('.');
  }

  /** A handle for `agent`, for `caller` only. */
  mint(agent: string, caller: Caller, now: number = Date.now()): MintedHandle {
    const expiry = Math.floor(now / 1000) + this.#ttlSeconds;
    const stamp = expiry.toString(36);
    return { handle: `${agent}.${stamp}.${this.#sign(agent, stamp, caller)}`, expiresAt: new Date(expiry * 1000).toISOString() };
  }

  /**
   * The agent `handle` names, if this gateway's key signed it for `caller` and it has not
   * expired: COLLAB_HANDLE_INVALID otherwise, saying which.
   */
  agentOf(handle: string, caller: Caller, now: number = Date.now()): string {
    const parts = HANDLE.exec(handle);
    // Compared as text: decoded, four spellings of the last character would give the same bytes.
    const signature = parts === null ? undefined : Buffer.from(parts[3]!);
    const expected = parts === null ? undefined : Buffer.from(this.#sign(parts[1]!, parts[2]!, caller));
    if (signature === undefined || expected === undefined || signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
      throw this.#ctx.error(
        'COLLAB_HANDLE_INVALID',
        'This agent handle was not made by this gateway for this caller (another API key or client got it, or it was changed): call collab_join and pass the handle it returns as agent.',
        { reason: 'signature' },
      );
    }
    const expiry = Number.parseInt(parts![2]!, 36) * 1000;
    if (expiry <= now) {
      throw this.#ctx.error('COLLAB_HANDLE_INVALID', `This agent handle expired at ${new Date(expiry).toISOString()}: call collab_join again for a new one.`, {
        reason: 'expired',
        expired_at: new Date(expiry).toISOString(),
      });
    }
    return parts![1]!;
  }

  /**
   * Signed for the caller's API key when it came with one (the identity the gateway checked),
   * else for the name it goes by (the client's name, or the peer's address): a claim, as any
   * name is without keys.
   */
  #sign(agent: string, stamp: string, caller: Caller): string {
    const holder = caller.keyName === undefined ? `name:${caller.identity ?? ''}` : `key:${caller.keyName}`;
    return createHmac('sha256', this.#key).update(`collab agent handle\n${agent}\n${stamp}\n${holder}`).digest('base64url');
  }
}
