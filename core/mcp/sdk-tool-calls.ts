import { MissingRequiredClientCapabilityError, type CallToolResult, type InputRequiredResult, type Server } from '@modelcontextprotocol/server';
import { listsTool } from '../catalog/caller-view.js';
import type { CallOutcome } from '../catalog/tool-catalog.js';
import { toMcpResult } from '../catalog/tool-result.js';
import { toolErrorResult } from '../contract/replies.js';
import { TASK_TTL_MS, TASKS_EXTENSION, type Tasks } from '../tasks/tasks.js';
import type { CallHooks } from './call-stage.js';
import { requestHooks, type RequestAsking } from './mcp-content.js';
import { withNotes, type ToolCallHost } from './mcp-tool-calls.js';
import type { RequestContext } from '../sessions/input-round.js';
import { rpcFailure } from '../sessions/rpc-failure.js';
import { callMaybeAsTask, declaresTasks } from './task-calls.js';

/** A 2026-07-28 tools/call host: each call asks its client through its request's own round. */
export interface ModernToolCallHost extends Omit<ToolCallHost, 'client'> {
  readonly asking: (ctx: RequestContext, tool: string, args: unknown) => RequestAsking;
  readonly tasks: Tasks;
  /** Whose task a call's task is (input-round.ts's caller binding). */
  readonly owner: (ctx: RequestContext) => string;
}

/** One 2026-07-28 tools/call: how to run it, and what each of its ends answers. */
interface ModernCall {
  readonly run: (client?: RequestAsking['client'], hooks?: CallHooks) => Promise<CallOutcome>;
  /** The result of a call that ended; a JSON-RPC error is thrown. */
  readonly answer: (outcome: CallOutcome) => CallToolResult | Promise<CallToolResult | InputRequiredResult>;
  readonly asking: RequestAsking;
}

function modernCall(host: ModernToolCallHost, name: string, args: Record<string, unknown> | undefined, ctx: RequestContext, hooks: () => CallHooks): ModernCall {
  const caller = host.caller(ctx);
  const asking = host.asking(ctx, name, args ?? {});
  return {
    asking,
    run: (client = asking.client, callHooks = hooks()) =>
      host.catalog.call(name, args, { caller, allows: host.allows, profile: host.profile, client, requestId: ctx.mcpReq.id, ...callHooks }),
    // Not async: a result needs no promise of its own on the hot path.
    answer: (outcome) => {
      if (outcome.ok) return withNotes(toMcpResult(outcome.value, outcome.tool.listing.outputSchema !== undefined, outcome.json), host.notes?.(caller, name) ?? []);
      const questions = asking.inputRequired(outcome.error);
      if (questions) return questions;
      const refusal = asking.refusal?.(outcome.error);
      if (refusal) throw refusal;
      if (host.errors.get(outcome.error.code)?.mcp === 'protocol') throw rpcFailure(outcome.error, host.errors);
      return toolErrorResult(outcome.error);
    },
  };
}

/**
 * Runs one 2026-07-28 tools/call of a tool without task support, for a request that `ctx`
 * describes, with the hooks its answerer made (cancellation, progress): its result, the
 * questions of its round, or a thrown JSON-RPC error. What the SDK's handler below does for such
 * a tool, for the stage that answers ahead of the SDK (modern-call-stage.ts).
 */
export async function callModernTool(host: ModernToolCallHost, name: string, args: Record<string, unknown> | undefined, ctx: RequestContext, hooks: CallHooks): Promise<CallToolResult | InputRequiredResult> {
  const call = modernCall(host, name, args, ctx, () => hooks);
  return call.answer(await call.run());
}

/**
 * Answers tools/call through the SDK's Server, as a request handler: for a 2026-07-28 request,
 * whose result the SDK stamps (`resultType`, `serverInfo`) after checking its `_meta` envelope.
 * A well-formed request for a tool without task support and without a round to carry on is
 * answered ahead of the SDK (modern-call-stage.ts), and a 2025-era session's on its own stage
 * (mcp-tool-calls.ts); the call itself, the catalog's, is the same. The params were checked by
 * the gate's param checks (param-checks.ts) before the SDK parsed them. A call that asks the
 * client ends with the questions (an InputRequiredResult, input-round.ts); one that needs a
 * capability the request does not declare gets the revision's -32021; a call of a tool that
 * supports tasks may become one (task-calls.ts).
 */
export function serveToolCalls(server: Server, host: ModernToolCallHost): void {
  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult | InputRequiredResult> => {
    const { name, arguments: args } = request.params;
    const { run, answer, asking } = modernCall(host, name, args, ctx, () => requestHooks(ctx));
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
