import { LoggingLevelSchema } from '@modelcontextprotocol/core';
import type { LoggingLevel } from '@modelcontextprotocol/server';

/** The MCP (RFC 5424) levels by severity, least severe first. */
const SEVERITY = new Map<string, number>(LoggingLevelSchema.options.map((level, index) => [level, index]));

/** Whether a message of `level` is filtered out by the client's `threshold`; nothing is without one. */
export function isBelow(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  return threshold !== undefined && SEVERITY.get(level)! < SEVERITY.get(threshold)!;
}
