import type { Client } from '@modelcontextprotocol/client';
import type { Logger } from '@mcp-gateway/core';

/** What the mirrors of a server's tools, resources and prompts are told. */
export interface ServerListener {
  /** Connected (again): list everything afresh. */
  connected(client: Client): void;
  /** The connection was lost; calls answer UPSTREAM_UNAVAILABLE until `connected`. */
  disconnected(): void;
  listChanged(kind: 'tools' | 'resources' | 'prompts'): void;
  resourceUpdated(uri: string): void;
}

/**
 * Passes what server `name` announces to `listeners`: its lists changed, a resource updated.
 * Its log messages and transport errors go to the gateway's log, at debug level.
 */
export function relayNotifications(client: Client, name: string, listeners: readonly ServerListener[], log: Logger): void {
  const notify = (kind: 'tools' | 'resources' | 'prompts') => () => {
    for (const listener of listeners) listener.listChanged(kind);
  };
  client.setNotificationHandler('notifications/tools/list_changed', notify('tools'));
  client.setNotificationHandler('notifications/resources/list_changed', notify('resources'));
  client.setNotificationHandler('notifications/prompts/list_changed', notify('prompts'));
  client.setNotificationHandler('notifications/resources/updated', ({ params }) => {
    for (const listener of listeners) listener.resourceUpdated(params.uri);
  });
  client.setNotificationHandler('notifications/message', ({ params }) => {
    log.debug({ server: name, level: params.level, logger: params.logger, data: params.data }, 'upstream log message');
  });
  client.onerror = (err) => log.debug({ server: name, err }, 'upstream transport error');
}
