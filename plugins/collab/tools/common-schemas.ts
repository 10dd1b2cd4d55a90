// Schema pieces every collab tool shares: one spelling of an agent name, a task id, a priority.
import { AGENT_NAME_PATTERN } from '../model.js';

export const agentName = { type: 'string', pattern: AGENT_NAME_PATTERN, description: 'An agent name: lower case letters, digits, - and _, starting with a letter.' } as const;

/**
 * The acting agent, for callers without a joined session (REST): a session that called
 * collab_join, or a key pinned to an agent, leaves it out (and may only name its own).
 */
export const actingAgent = {
  ...agentName,
  description: 'The agent you act as. Leave it out after collab_join (MCP sessions) or with a key pinned to an agent; REST callers name it in every call.',
} as const;

export const taskId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: "A task's id, as collab_create_task or collab_list_tasks gave it." } as const;
export const priority = { type: 'integer', minimum: 1, maximum: 4, description: '1 (most urgent) to 4.' } as const;
export const text = (maxLength: number, description: string) => ({ type: 'string', minLength: 1, maxLength, description }) as const;
export const nullable = <S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;
/** A workspace path, as the files tools take it; resolved through the sandbox. */
export const workspacePath = text(4096, 'A path inside the workspace, relative to its root (or absolute inside it).');
