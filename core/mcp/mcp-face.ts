import type { Server, ServerCapabilities, Transport } from '@modelcontextprotocol/server';
import type { Gateway } from '../gateway/gateway.js';
import { openMcpSession, serverCapabilities, type LegacySession, type McpSessionDeps, type McpSessionOptions } from './mcp-session.js';
import { modernServer, modernToolCallHost, type ModernServerOptions } from './modern-server.js';
import { requestStateCodec } from './request-state-key.js';
import type { ModernToolCallHost } from './sdk-tool-calls.js';
import { serveStreamEras, type StreamConnection } from './stream-eras.js';

// MCP is a face of the gateway, as HTTP is: the kernel knows nothing of the protocol. Every
// listener that speaks MCP (stdio, TCP, the unix socket, /mcp) serves its sessions through the
// one face of its gateway, made on first use from what it needs of the kernel.

/** What the MCP face uses of a gateway. */
export type McpKernel = Pick<
  Gateway,
  'catalog' | 'resources' | 'prompts' | 'subscriptions' | 'errors' | 'sessions' | 'log' | 'version' | 'tasks' | 'listChanges' | 'store' | 'config' | 'channels'
>;

export interface McpFace {
  /** What `initialize` answers as the server's capabilities (with the channels the enabled plugins declare). */
  readonly capabilities: ServerCapabilities;
  /** Serves one 2025-era MCP session over `transport` (one SDK Server per session). */
  connect(transport: Transport, options: McpSessionOptions): ReturnType<typeof openMcpSession>;
  /**
   * Serves one stream connection (stdio, TCP, the unix socket) in the era its client opens with
   * (stream-eras.ts); `onLegacy` hears of a 2025 session before its first message.
   */
  serveStream(transport: Transport, options: McpSessionOptions, onLegacy?: (opened: LegacySession) => void): StreamConnection;
  /** A Server for one 2026-07-28 request, for the SDK's era entry to connect (modern-server.ts). */
  modernServer(options: ModernServerOptions): Server;
  /** How one caller's plain 2026-07-28 tools/call runs without a Server (`/mcp` answers it before the SDK's entry). */
  modernToolCallHost(options: ModernServerOptions): ModernToolCallHost;
}

const faces = new WeakMap<McpKernel, Promise<McpFace>>();

/** The MCP face of `kernel`, made once (a failed making is tried again by the next caller). */
export function mcpFace(kernel: McpKernel): Promise<McpFace> {
  let face = faces.get(kernel);
  if (!face) {
    face = openMcpFace(kernel);
    faces.set(kernel, face);
    face.catch(() => faces.delete(kernel));
  }
  return face;
}

async function openMcpFace(kernel: McpKernel): Promise<McpFace> {
  // The key that signs the state of 2026-07-28 input rounds: shared by the gateways of one store,
  // so that a retry may reach any of them.
  const requestStates = await requestStateCodec(kernel.store, kernel.config.dataDir);
  const capabilities = serverCapabilities(kernel.channels);
  const { catalog, resources, prompts, subscriptions, errors, sessions, log, version, tasks, listChanges } = kernel;
  const deps: McpSessionDeps = { catalog, resources, prompts, subscriptions, errors, sessions, log, version, capabilities, requestStates, tasks };
  return {
    capabilities,
    connect: (transport, options) => openMcpSession(deps, transport, options),
    serveStream: (transport, options, onLegacy) => serveStreamEras({ ...deps, listChanges }, transport, options, onLegacy),
    modernServer: (options) => modernServer(deps, options),
    modernToolCallHost: (options) => modernToolCallHost(deps, options),
  };
}
