// /health and /health/live: readiness and liveness, kept apart. A gateway whose shared store
// is down is alive (restarting it would not bring PostgreSQL back) but not ready (every call
// that needs the store fails), so a load balancer routes on /health and a supervisor that
// restarts dead processes watches /health/live.
import type { FastifyInstance } from 'fastify';
import type { ErrorTable } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import { errorResponses, healthRouteSchema } from './openapi.js';

/** What this file uses of the gateway. */
export type HealthGateway = Pick<Gateway, 'errors' | 'lifecycle' | 'status' | 'store'>;

/** Route schema of `GET /health/live`. */
function livenessRouteSchema(errors: ErrorTable) {
  return {
    operationId: 'liveness',
    tags: ['gateway'],
    summary: 'Liveness: the process answers',
    security: [],
    response: {
      200: {
        description: 'The process serves HTTP, whatever its state and its dependencies; /health says whether it is ready.',
        type: 'object',
        additionalProperties: false,
        required: ['status', 'state'],
        properties: { status: { enum: ['alive'] }, state: { enum: ['booting', 'ready', 'closing', 'closed'] } },
      },
      ...errorResponses(errors, ['HOST_NOT_ALLOWED']),
    },
  };
}

export function registerHealthRoutes(app: FastifyInstance, gateway: HealthGateway): void {
  const { errors, lifecycle, store } = gateway;
  app.get('/health', { schema: healthRouteSchema(errors) }, async (_request, reply) => {
    // A cached probe (storage.healthCheck): asking often costs at most one query per cacheMs.
    if (lifecycle.state === 'ready') await store.health.check();
    const status = gateway.status();
    // Not ready is 503, so that a load balancer sends nothing to a gateway still starting,
    // already closing, or without its shared store.
    if (status.state !== 'ready') return reply.code(503).send({ status: status.state === 'booting' ? 'booting' : 'closing', ...status });
    if (status.store.state === 'unavailable') return reply.code(503).send({ status: 'unavailable', ...status });
    const degraded =
      status.breakers.some((b) => b.state !== 'closed') ||
      status.skippedPlugins.length > 0 ||
      status.audit?.state === 'unavailable' ||
      status.plugins.some((p) => p.status?.ok === false);
    return { status: degraded ? 'degraded' : 'ok', ...status };
  });
  // Asks nothing of the store or the plugins: an answer at all is the point.
  app.get('/health/live', { schema: livenessRouteSchema(errors) }, () => ({ status: 'alive', state: lifecycle.state }));
}
