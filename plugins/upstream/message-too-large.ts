import { formatBytes } from '@mcp-gateway/core';

/**
 * A message from an upstream server that passed its `maxMessageBytes`: raised by the readers
 * (stdio lines, HTTP bodies and SSE events) the moment the bound is crossed, so nothing past
 * it is read or held. Recognised by class, not by a field: it never leaves this process, and a
 * server cannot forge one by sending an error that looks like it.
 */
export class MessageTooLargeError extends Error {
  /** The server's maxMessageBytes. */
  readonly limit: number;

  constructor(limit: number, where: string) {
    super(`${where} passed maxMessageBytes (${formatBytes(limit)})`);
    this.name = 'MessageTooLargeError';
    this.limit = limit;
  }
}

export function isMessageTooLarge(err: unknown): err is MessageTooLargeError {
  return err instanceof MessageTooLargeError;
}
