// The remote back ends, chosen by remote.protocol: another gateway's REST bridge, or OpenBrain.
import type { Breaker, Logger } from '@mcp-gateway/core';
import type { Brain } from '../brain.js';
import type { RemoteConfig } from '../config.js';
import type { RaiseError } from '../declaration.js';
import { GatewayBrain } from './gateway-brain.js';
import { RemoteClient } from './http-client.js';
import { OpenBrainBrain } from './openbrain-brain.js';
import { remoteSettings } from './remote-settings.js';

export { isCallerError } from './http-client.js';

export interface RemoteBrainDeps {
  readonly config: RemoteConfig;
  /**
   * `brain:remote`, made by the plugin with `timeoutMs: remote.timeoutMs`, the overrides of
   * `remote.breaker` and `isCallerError` from this module.
   */
  readonly breaker: Breaker;
  readonly error: RaiseError;
  readonly log: Logger;
  /** Where the key's variable (remote.apiKeyEnv) is read, once, here. */
  readonly env: NodeJS.ProcessEnv;
}

/**
 * The Brain for `backend: remote`. Throws CONFIG_INVALID at setup for a missing or unusable
 * remote.url (and plain http to a host that is not loopback without allowHttp). Sends no
 * request: a remote that is down now does not stop the gateway from starting.
 */
export function createRemoteBrain({ config, breaker, error, log, env }: RemoteBrainDeps): Brain {
  const settings = remoteSettings(config, env);
  if (!settings.apiKey) log.warn({ apiKeyEnv: settings.apiKeyEnv, url: settings.base }, 'the remote brain key variable is not set: requests go without Authorization');
  const client = new RemoteClient(settings, breaker, error);
  log.info({ url: settings.base, protocol: config.protocol }, 'brain: remote back end');
  if (config.protocol === 'openbrain') {
    return new OpenBrainBrain({ client, error, log, ...(config.agentId === undefined ? {} : { agentId: config.agentId }) });
  }
  return new GatewayBrain(client, error);
}
