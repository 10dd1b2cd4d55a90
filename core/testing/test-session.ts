/**
 * A test's MCP session: a real SDK client and the two calls most tests make with it, `call`
 * (a tool's structured result) and `fail` (the error of a call that must fail).
 */
import type { Client } from '@modelcontextprotocol/client';

/** The error a tool call answered: its stable `code`, `message` and any `details`. */
export interface TestToolError {
  readonly code: string;
  readonly message: string;
  readonly details?: any;
}

export interface TestSession {
  /** The SDK client of this session. */
  readonly client: Client;
  /** Calls `tool`; resolves with its `structuredContent`, throws when the result is an error. */
  call(tool: string, args?: Record<string, unknown>): Promise<any>;
  /** Calls a tool that must fail; resolves with its error, throws when the call succeeds. */
  fail(tool: string, args?: Record<string, unknown>): Promise<TestToolError>;
}

/** `call` and `fail` through `client`. */
export function testSession(client: Client): TestSession {
  const call = async (tool: string, args: Record<string, unknown> = {}): Promise<any> => {
    const result = await client.callTool({ name: tool, arguments: args });
    if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent;
  };
  const fail = async (tool: string, args: Record<string, unknown> = {}): Promise<TestToolError> => {
    const result = await client.callTool({ name: tool, arguments: args });
    if (!result.isError) throw new Error(`${tool} succeeded: ${JSON.stringify(result.structuredContent)}`);
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    const parsed = JSON.parse(text) as { error?: TestToolError } & TestToolError;
    return parsed.error ?? parsed;
  };
  return { client, call, fail };
}
