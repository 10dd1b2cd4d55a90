import { isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import { jsonRpcError } from '../contract/replies.js';
import type { GateStage } from './inbound-gate.js';
import { admitListen, listenedUris } from './listen-admission.js';
import type { ContentDeps } from './mcp-content.js';
import { cancelledRequest } from './call-stage.js';

/**
 * The gate stage of a stream connection for 2026-07-28 listens that name resources (the SDK's
 * entry answers listen itself): each is held back until admitListen admits it, then handed on
 * with `pass`, or refused here with `send`. An admitted listen holds its resources until its
 * `notifications/cancelled` (which goes on to the SDK too) or `releaseAll`, at the
 * connection's end.
 */
export function listenStage(
  deps: ContentDeps,
  allowsPlugin: ((plugin: string) => boolean) | undefined,
  send: (message: JSONRPCMessage) => void,
  pass: (message: JSONRPCMessage) => void,
): { readonly stage: GateStage; releaseAll(): void } {
  const held = new Map<RequestId, () => void>();
  let ended = false;
  const release = (id: RequestId) => {
    held.get(id)?.();
    held.delete(id);
  };
  const stage: GateStage = (message) => {
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) release(cancelled);
    const uris = listenedUris(message);
    if (!uris || !isJSONRPCRequest(message)) return false;
    const { id } = message;
    void admitListen(uris, deps, allowsPlugin).then((admitted) => {
      if ('refusal' in admitted) return send(jsonRpcError(id, admitted.refusal, deps.errors));
      // A connection gone meanwhile holds nothing.
      if (ended) return admitted.release();
      held.set(id, admitted.release);
      pass(message);
    });
    return true;
  };
  return {
    stage,
    releaseAll: () => {
      ended = true;
      for (const id of [...held.keys()]) release(id);
    },
  };
}
