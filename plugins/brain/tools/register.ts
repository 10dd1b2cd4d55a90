// The brain_ tools' handlers: the caller's identity as the agent, the content's cap, one Brain
// behind them all, and an event (and channel message) when each call completes.
import { firstCodePoints, type CallContext } from '@mcp-gateway/core';
import type { Brain, BrainCall } from '../brain.js';
import type { BrainContext } from '../declaration.js';
import type { Memory, MemoryFilter, MemoryType } from '../model.js';
import { brainForget, brainImport, brainList, brainRecall, brainRemember } from './definitions.js';

/** What an agent id holds at most: the schemas' bound on agent_id (filters, brain_import). */
export const MAX_AGENT_CHARS = 128;

/**
 * The agent a call acts as: who the gateway knows the caller to be. Stored with every memory it
 * writes, so cut to MAX_AGENT_CHARS: an MCP client names itself, with a name of any length.
 */
function agentOf(call: CallContext): string {
  return firstCodePoints(call.caller.identity ?? call.caller.transport, MAX_AGENT_CHARS);
}

/** Refuses a memory whose content is over `maxContentBytes` (BRAIN_CONTENT_TOO_LARGE): for the tools and `brain import`. */
export type ContentCheck = (memory: Pick<Memory, 'content'>, where?: string) => void;

export function contentCheck(ctx: BrainContext): ContentCheck {
  const { maxContentBytes } = ctx.config;
  return (memory, where = 'content') => {
    const bytes = Buffer.byteLength(memory.content, 'utf8');
    if (bytes > maxContentBytes) {
      throw ctx.error('BRAIN_CONTENT_TOO_LARGE', `${where} is ${bytes} bytes; a memory holds at most ${maxContentBytes} (plugins.brain.config.maxContentBytes). Split it into several memories.`, {
        field: where,
        limit: maxContentBytes,
        length: bytes,
      });
    }
  };
}

export function registerBrainTools(ctx: BrainContext, brain: Brain, checkContent: ContentCheck): void {
  const acting = (call: CallContext): BrainCall => ({ agent: agentOf(call), signal: call.signal });

  /** On /events for everyone allowed to watch, and as a channel message to the caller's own sessions. */
  const completed = (event: string, call: CallContext, data: Record<string, unknown>) => {
    const channel = `brain.${event}.complete`;
    const payload = { ...data, agent_id: agentOf(call), backend: brain.kind };
    ctx.events.publish(channel, payload);
    const target = call.caller.identity !== undefined ? { identity: call.caller.identity } : call.caller.sessionId !== undefined ? { session: call.caller.sessionId } : undefined;
    if (target) ctx.notify.channel(target, channel, payload);
  };

  ctx.tool(brainRemember, async (args, call) => {
    checkContent(args);
    const result = await brain.remember(args, acting(call));
    const { id, type, org, project, tags } = result.memory;
    completed('remember', call, { id, type, org, project, tags, duplicate: result.duplicate, queued: result.queued });
    return result;
  });

  ctx.tool(brainRecall, async (args, call) => {
    const result = await brain.recall({ ...filterOf(args), query: args.query, top_k: args.top_k, mode: args.mode }, acting(call));
    // Not the query: it can hold what memories hold, and events carry no contents.
    completed('recall', call, { count: result.memories.length, ids: result.memories.map((m) => m.id), mode: result.mode, ...(result.partial ? { partial: result.partial } : {}) });
    return { count: result.memories.length, ...result };
  });

  ctx.tool(brainForget, async (args, call) => {
    const result = await brain.forget(args.id, args.reason, acting(call));
    completed('forget', call, { id: result.id, forgotten: result.forgotten, ...(args.reason ? { reason: args.reason } : {}) });
    return result;
  });

  ctx.tool(brainList, async (args, call) => {
    const result = await brain.list(
      { ...filterOf(args), limit: args.limit, order: args.order, ...(args.cursor !== undefined ? { cursor: args.cursor } : {}), include_forgotten: args.include_forgotten },
      acting(call),
    );
    completed('list', call, { count: result.memories.length, more: result.next_cursor !== undefined, ...(result.partial ? { partial: result.partial } : {}) });
    return { count: result.memories.length, ...result };
  });

  ctx.tool(brainImport, async (args, call) => {
    const memories = args.memories as unknown as Memory[];
    memories.forEach((memory, i) => checkContent(memory, `memories[${i}].content`));
    return brain.import(memories, acting(call));
  });
}

/** The filters recall and list share, `type` and `types` made one list. */
function filterOf(args: {
  org?: string;
  project?: string;
  type?: MemoryType;
  types?: MemoryType[];
  agent_id?: string;
  min_confidence?: number;
  tags?: string[];
  include_superseded: boolean;
  include_expired: boolean;
}): MemoryFilter {
  const types = [...new Set([...(args.type ? [args.type] : []), ...(args.types ?? [])])];
  return {
    ...(args.org !== undefined ? { org: args.org } : {}),
    ...(args.project !== undefined ? { project: args.project } : {}),
    ...(types.length ? { types } : {}),
    ...(args.agent_id !== undefined ? { agent_id: args.agent_id } : {}),
    ...(args.min_confidence !== undefined ? { min_confidence: args.min_confidence } : {}),
    ...(args.tags ? { tags: args.tags } : {}),
    include_superseded: args.include_superseded,
    include_expired: args.include_expired,
  };
}
