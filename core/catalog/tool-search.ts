import type { ToolCatalog } from './tool-catalog.js';
import { callToolDefinition, callToolHandler } from './tool-search-call.js';
import { findToolsDefinition, findToolsHandler } from './tool-search-find.js';
import { SEARCH_TOOL_NAMES } from './tool-search-names.js';
import { ToolSearchIndex } from './tool-search-index.js';

/**
 * Adds gateway_find_tools and gateway_call_tool (config `tools.search`), the way to every tool
 * a caller may call for a client that lists only a few. Returns the search index, to close
 * once no call runs any more.
 */
export function addToolSearch(catalog: ToolCatalog): ToolSearchIndex {
  const index = new ToolSearchIndex(catalog, SEARCH_TOOL_NAMES);
  try {
    catalog.add([catalog.prepare('gateway', findToolsDefinition, findToolsHandler(index)), catalog.prepare('gateway', callToolDefinition, callToolHandler(catalog))]);
  } catch (err) {
    void index.close();
    throw err;
  }
  return index;
}
