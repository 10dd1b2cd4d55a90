// collab's prompts: pairing (answer your partner), a code review (ask for one, or do one) and
// planning a feature (a plan, its items and tasks with dependencies). Each is the text a user
// would otherwise type, naming the collab tools to call in order.
import type { CallContext, PromptMessage } from '@mcp-gateway/core';
import type { Collab } from './collab.js';
import { AGENT_OR_HANDLE_PATTERN } from './agent-handles.js';
import { agentNames } from './completions.js';
import { parseJson } from './context.js';
import { AGENT_NAME_PATTERN } from './model.js';
import { agentsNotOffline, findAgentRow } from './store/agent-store.js';
import { oldestUnreadFrom } from './store/message-store.js';
import { PLAN_ID_PATTERN } from './tools/plan-schemas.js';

/** Unread messages from the partner quoted in the pairing prompt at most, and characters of each. */
const QUOTED_MESSAGES = 10;
const QUOTED_CHARS = 2000;

const agentArgument = (description: string) => ({ type: 'string', pattern: AGENT_NAME_PATTERN, description }) as const;
const user = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });

export function registerCollabPrompts(collab: Collab): void {
  const { ctx, identity, plans, store } = collab;
  const completeAgent = (value: string) => agentNames(store, value);

  /** The agent the prompt is for: the one named (if the caller may act as it), else the session's. */
  const me = (call: CallContext, named: string | undefined): string | undefined => {
    return named === undefined ? identity.agentOfCaller(call.caller) : identity.named(call, named);
  };

  ctx.prompt<{ partner: string; agent?: string }>(
    {
      name: 'collab_pair',
      title: 'Pair with another agent',
      description: 'Read your messages and answer your partner: the unread messages from them are quoted, with the tools to reply in their thread.',
      arguments: {
        type: 'object',
        additionalProperties: false,
        required: ['partner'],
        properties: {
          partner: agentArgument('The agent you pair with.'),
          agent: { type: 'string', pattern: AGENT_OR_HANDLE_PATTERN, description: 'You, when this session has not joined: the agent_handle collab_join returned, or your name.' },
        },
      },
      complete: { partner: completeAgent, agent: completeAgent },
    },
    async ({ partner, agent }, call) => {
      const self = me(call, agent);
      if (!(await findAgentRow(store.db, partner))) {
        throw ctx.error('COLLAB_AGENT_NOT_FOUND', `No agent is named "${partner}": pair with a registered agent (collab_list_agents).`, { agent: partner });
      }
      const steps = [
        `You are pairing with ${partner} through the collab tools${self ? `, as ${self}` : ''}.`,
        '',
        `1. Read your messages: collab_read_messages. Take in everything ${partner} sent since you last answered.`,
        `2. Answer ${partner} with collab_send_message (to: "${partner}", reply_to: the id of the message you answer), one message per thread: what you did, what you think, what you need from them.`,
        `3. If ${partner} asked you for work, do it first (collab_claim_next, lock files before editing them), then answer with the result.`,
        '4. Keep each answer short and concrete: file paths, commands, decisions. Ask one clear question when you are stuck.',
      ];
      const messages = [user(steps.join('\n'))];
      if (self !== undefined) {
        const unread = await oldestUnreadFrom(store.db, self, partner, QUOTED_MESSAGES);
        const quoted = unread.map((m) => `#${m.id}${m.subject ? ` (${m.subject})` : ''}, ${m.created_at}:\n${m.body.length > QUOTED_CHARS ? `${m.body.slice(0, QUOTED_CHARS)}…` : m.body}`);
        messages.push(user(quoted.length === 0 ? `No unread messages from ${partner} right now.` : `Unread from ${partner} (not yet marked read):\n\n${quoted.join('\n\n')}`));
      }
      return messages;
    },
  );

  ctx.prompt<{ files: string; focus?: string; reviewer?: string }>(
    {
      name: 'collab_code_review',
      title: 'Code review',
      description: 'A code review of some files: with a reviewer, ask them for it (a review task and a message) and act on their findings; without one, review the files yourself and report.',
      arguments: {
        type: 'object',
        additionalProperties: false,
        required: ['files'],
        properties: {
          files: { type: 'string', minLength: 1, maxLength: 8000, description: 'The files to review, separated by commas or new lines, relative to the workspace.' },
          focus: { type: 'string', maxLength: 2000, description: 'What to look at: correctness, security, naming, tests…' },
          reviewer: agentArgument('The agent to ask for the review; without one, you review.'),
        },
      },
      complete: { reviewer: completeAgent },
    },
    ({ files, focus, reviewer }) => {
      const paths = files.split(/[,\n]/).map((f) => f.trim()).filter((f) => f.length > 0);
      const list = paths.map((p) => `- ${p}`).join('\n');
      const about = focus ? `Focus: ${focus}.` : 'Look at correctness first, then tests, then readability.';
      if (reviewer !== undefined) {
        return [
          `Ask ${reviewer} to review these files:\n${list}\n\n${about}`,
          '',
          `1. collab_request_review with to: "${reviewer}", files: ${JSON.stringify(paths)}, and a description that says what changed, why, and what to look at.`,
          `2. Keep working on something else; ${reviewer}'s findings arrive as a message (collab_read_messages).`,
          '3. Address each finding (lock the files first with collab_lock_file), answer in the same thread (reply_to), and complete the review task once both of you agree.',
        ].join('\n');
      }
      return [
        `Review these files:\n${list}\n\n${about}`,
        '',
        '1. Read each file whole before judging it; reviewing is reading: lock nothing.',
        '2. For each finding: the file and line, what is wrong, why it matters, and a concrete fix. Separate what must change from what could.',
        '3. Send the findings to whoever asked (collab_send_message, reply_to their request) and complete your review task (collab_update_task, status completed).',
      ].join('\n');
    },
  );

  ctx.prompt<{ feature: string; constraints?: string; plan_id?: string }>(
    {
      name: 'collab_plan_feature',
      title: 'Plan a feature',
      description: 'Turns a feature into a plan: items with owners, acceptance criteria and dependencies, then tasks with dependencies that agents claim. Lists the agents here and their capabilities.',
      arguments: {
        type: 'object',
        additionalProperties: false,
        required: ['feature'],
        properties: {
          feature: { type: 'string', minLength: 1, maxLength: 10_000, description: 'The feature: what it does, for whom.' },
          constraints: { type: 'string', maxLength: 4000, description: 'What must hold: deadlines, compatibility, files not to touch.' },
          plan_id: { type: 'string', pattern: PLAN_ID_PATTERN, description: 'An existing plan to add to, or the id for the new one.' },
        },
      },
      complete: { plan_id: (value) => plans.ids(value) },
    },
    async ({ feature, constraints, plan_id }) => {
      const agents = await agentsNotOffline(store.db, 50);
      const team = agents.map((a) => {
        const capabilities = parseJson<string[]>(a.capabilities, []);
        return `- ${a.name}${capabilities.length > 0 ? `: ${capabilities.join(', ')}` : ''} (${a.presence})`;
      });
      const existing = plan_id === undefined ? undefined : await plans.ids(plan_id).then((ids) => ids.includes(plan_id));
      const planStep = existing
        ? `1. The plan \`${plan_id}\` exists: read it (collab_get_plan) and add to it.`
        : `1. collab_create_plan with id ${plan_id ? `"${plan_id}"` : 'a short slug of the feature'}, a title, the goal (what is true when the feature is done) and the context (what the agents must know about the codebase).`;
      return [
        user(
          [
            `Plan this feature:\n\n${feature}`,
            constraints ? `\nConstraints:\n${constraints}` : '',
            '',
            planStep,
            '2. Split it into items (collab_add_plan_item), smallest useful first: each with an owner where one is obvious, a priority (1 urgent … 4), acceptance criteria that can be checked, constraints, and dependencies on items added before it.',
            '3. For each item, create the tasks that do it (collab_create_task with plan_id and plan_item_id): title, description, relevant files, expected duration, assignee (an agent, or "any"), and depends_on for tasks that must be completed first. No cycles; parallel work where files do not overlap.',
            '4. Tell the team (collab_send_message to "all"): the plan id, and that tasks are ready for collab_claim_next.',
            '',
            team.length === 0 ? 'No agent is here yet: assign to "any", or spawn workers (collab_spawn_worker).' : `Agents here:\n${team.join('\n')}`,
          ].join('\n'),
        ),
      ];
    },
  );
}
