/** The names of tool search's two tools, apart from their code: profiles hold them without loading the search index. */
export const FIND_TOOLS = 'gateway_find_tools';
export const CALL_TOOL = 'gateway_call_tool';
/** Never ranked by the search; in every profile unless excluded. */
export const SEARCH_TOOL_NAMES: readonly string[] = [FIND_TOOLS, CALL_TOOL];
