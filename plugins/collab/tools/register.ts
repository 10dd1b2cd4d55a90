// Every collab_ tool, area by area. Each area's file has its definitions and handlers.
import type { Collab } from '../collab.js';
import { registerAgentTools } from './agents.js';
import { registerWorkerTools } from './workers.js';

export function registerCollabTools(collab: Collab): void {
  registerAgentTools(collab);
  registerWorkerTools(collab);
}
