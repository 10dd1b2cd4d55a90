import { MissingRequiredClientCapabilityError, type CallToolResult, type InputRequiredResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { listsTool } from '../catalog/caller-view.js';
import type { CallOutcome } from '../catalog/tool-catalog.js';
import { toMcpResult } from '../catalog/tool-result.js';
import { toolErrorResult } from '../replies.js';
import { TASK_TTL_MS, TASKS_EXTENSION, type Tasks } from '../tasks/tasks.js';
import { requestHooks, type RequestAsking } from './mcp-content.js';
import { withNotes, type ToolCallHost } from './mcp-tool-calls.js';
import { rpcFailure } from './rpc-failure.js';
import { callMaybeAsTask, declaresTasks } from './task-calls.js';

/** A 2026-07-28 tools/call host: each call asks its client through its request's own round. */
export interface ModernToolCallHost extends Omit<ToolCallHost, 'client'> {
  readonly asking: (ctx: ServerContext, tool: string, args: unknown) => RequestAsking;
  readonly tasks: Tasks;
  /** Whose task a call's task is (input-round.ts's caller binding). */
  readonly owner: (ctx: ServerContext) => string;
}

/**
 * Answers tools/call through the SDK's Server, as a request handler: for a 2026-07-28 request,
 * whose result the SDK must stamp (`resultType`, `serverInfo`) after checking its `_meta`
 * envelope. A 2025-era session answers tools/call on its own stage ahead of the SDK
 * (mcp-tool-calls.ts); the call itself, the catalog's, is the same. The params were checked
 * by the gate's param checks (param-checks.ts) before the SDK parsed them. A call that asks
 * the client ends with the questions (an InputRequiredResult, input-round.ts); one that needs
 * a capability the request does not declare gets the revision's -32021; a call of a tool that
 * supports tasks may become one (task-calls.ts).
 */
export function serveToolCalls(server: Server, host: ModernToolCallHost): void {
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const { name, arguments: args } = request.params;
    const caller = host.caller(ctx);
    const asking = host.asking(ctx, name, args ?? {});
    const run = (client = asking.client, hooks = requestHooks(ctx)) =>
      host.catalog.call(name, args, { caller, allows: host.allows, profile: host.profile, client, requestId: ctx.mcpReq.id, ...hooks });
    // Not async: a result needs no promise of its own on the hot path.
    const answer = (outcome: CallOutcome): CallToolResult | Promise<CallToolResult | InputRequiredResult> => {
      if (outcome.ok) return withNotes(toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json), host.notes?.(caller, name) ?? []);
      const questions = asking.inputRequired(ctx, outcome.error);
      if (questions) return questions;
      const refusal = asking.refusal?.(outcome.error);
      if (refusal) throw refusal;
      if (host.errors.get(outcome.error.code)?.mcp === 'protocol') throw rpcFailure(outcome.error, host.errors);
      return toolErrorResult(outcome.error);
    };

    const tool = host.catalog.get(name);
    const taskSupport = tool && listsTool({ allows: host.allows, profile: host.profile }, tool) ? tool.definition.taskSupport : undefined;
    if (taskSupport === undefined) return answer(await run());
    if (declaresTasks(ctx)) {
      // Kept at least as long as the call may run, and a minute to read its end.
      const ttlMs = Math.max(TASK_TTL_MS, tool!.timeoutMs + 60_000);
      const answered = await callMaybeAsTask(ctx, asking, { tasks: host.tasks, log: host.log, owner: host.owner(ctx), tool: name, required: taskSupport === 'required', ttlMs, run, answer });
      // The SDK's types know no CreateTaskResult (the extension's); it passes one on, adding an empty `content`.
      return answered as CallToolResult | InputRequiredResult;
    }
    if (taskSupport === 'required') {
      throw new MissingRequiredClientCapabilityError(
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
        `${name} runs as a task: declare the ${TASKS_EXTENSION} extension in the request's _meta clientCapabilities.`,
      );
    }
    return answer(await run());
  });
}
