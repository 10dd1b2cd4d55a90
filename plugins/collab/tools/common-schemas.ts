// Schema pieces every collab tool shares: one spelling of an agent name, a task id, a priority.
import { AGENT_OR_HANDLE_PATTERN } from '../agent-handles.js';
import { AGENT_NAME_PATTERN } from '../model.js';

// Argument prose is what every session pays for before its first call: the pieces carry none,
// and a tool adds a description only where the name and the schema leave a model guessing.
export const agentName = { type: 'string', pattern: AGENT_NAME_PATTERN } as const;

/**
 * The acting agent, for callers without a joined session: the handle collab_join returned (a
 * 2026-07-28 client, REST), or a name (REST). A session that called collab_join, or a key pinned
 * to an agent, leaves it out (and may only name its own). Undescribed on purpose: it is in most
 * collab tools, collab_join's description says what to pass, and a caller that must name it is
 * told so by COLLAB_AGENT_REQUIRED.
 */
export const actingAgent = { type: 'string', maxLength: 120, pattern: AGENT_OR_HANDLE_PATTERN } as const;

export const taskId = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER } as const;
export const priority = { type: 'integer', minimum: 1, maximum: 4, description: '1 is most urgent.' } as const;
export const text = (maxLength: number, description?: string) => ({ type: 'string', minLength: 1, maxLength, ...(description === undefined ? {} : { description }) }) as const;
export const nullable = <S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;
/** A workspace path, as the files tools take it; resolved through the sandbox. */
export const workspacePath = text(4096);
