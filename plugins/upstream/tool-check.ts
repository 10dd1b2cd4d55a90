import { specTypeSchemas, type StandardSchemaV1, type Tool } from '@modelcontextprotocol/client';

/** A tool of a server's tools/list, accepted as MCP defines a tool, or refused with the reason. */
export type CheckedTool = { readonly tool: Tool } | { readonly refused: { readonly upstream: string; readonly reason: string } };

/** MCP's longest tool name; a longer one is no name a client could show or a person pick. */
const MAX_NAME = 128;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** How much of a refused name, and of the reason, the status shows. */
const SHOWN = 80;
const MAX_REASON = 400;

/**
 * Checks one entry of a server's tools/list on its own, so that one malformed tool is refused
 * and the others are offered (the SDK's listTools parses the whole answer at once and refused
 * every tool for one bad entry). A tool must be an object with a name of 1 to 128 characters,
 * none of them control characters, and must match MCP's Tool shape (an object inputSchema
 * among the rest). Whether its schemas compile is core's to say when the tool is added.
 * A refused tool is named by its name (cut to 80 characters, control characters escaped), or
 * by its place in the list when it has none.
 */
export function checkTool(entry: unknown, index: number): CheckedTool {
  const place = `tools[${index}]`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    return refuse(place, `the entry is ${describe(entry)}, not an object`);
  }
  const { name } = entry as { name?: unknown };
  if (typeof name !== 'string') return refuse(place, `its name is ${describe(name)}, not a string`);
  if (name.length === 0) return refuse(place, 'its name is empty');
  // Control characters escaped (JSON's way, without the quotes): the name ends up in logs and status.
  const shown = JSON.stringify(name.length > SHOWN ? `${name.slice(0, SHOWN)}…` : name).slice(1, -1);
  if (name.length > MAX_NAME) return refuse(shown, `its name has ${name.length} characters; MCP allows at most ${MAX_NAME}`);
  if (CONTROL.test(name)) return refuse(shown, 'its name holds control characters');
  const parsed = specTypeSchemas.Tool['~standard'].validate(entry) as StandardSchemaV1.Result<Tool>;
  if (parsed.issues === undefined) return { tool: parsed.value };
  const problems = parsed.issues.slice(0, 3).map((issue) => `${issue.path?.map((key) => (typeof key === 'object' ? key.key : key)).join('.') || '(the tool)'}: ${issue.message}`);
  return refuse(shown, `it is not an MCP tool: ${problems.join('; ')}`);
}

/** The reason is cut too: a schema's property names (in the issues' paths) come from the server. */
function refuse(upstream: string, reason: string): CheckedTool {
  return { refused: { upstream, reason: reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason } };
}

/** A value from the server as a reason shows it: its JSON, cut short. */
function describe(value: unknown): string {
  const json = value === undefined ? 'missing' : JSON.stringify(value);
  return json.length > 40 ? `${json.slice(0, 40)}…` : json;
}
