// Types for bare-mcp.js, which stays plain JavaScript so the bare child runs on plain node.
import type { Server } from '@modelcontextprotocol/server';
export declare function createBareServer(): Server;
