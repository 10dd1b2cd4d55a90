import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../gateway/gateway.js';
import { sendError } from './http-reply.js';
import { restSuccess } from '../contract/replies.js';
import type { Profile } from '../catalog/profiles.js';
import type { ToolCatalog } from '../catalog/tool-catalog.js';

/** What this file uses of the gateway. */
export type ProfileRoutesGateway = Pick<Gateway, 'catalog' | 'errors' | 'profiles'>;

type Document = { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;

/**
 * `GET /profiles` (which profiles there are, what each lists) and
 * `GET /profiles/<profile>/openapi.json` (the OpenAPI document of one profile: its tools'
 * paths under `/profiles/<profile>/tools/<name>`, the other routes as in /openapi.json).
 * `document` gives the whole document as /openapi.json serves it.
 */
export function registerProfileRoutes(app: FastifyInstance, gateway: ProfileRoutesGateway, document: () => Promise<object>): void {
  const { catalog, profiles, errors } = gateway;
  app.get('/profiles', { schema: { hide: true } }, () =>
    restSuccess(
      profiles.names().map((name) => {
        const profile = profiles.require(name);
        const described = profile.description ? { description: profile.description } : {};
        return { name, ...described, tools: profiles.listed(profile).length, others: profile.others, default: profile === profiles.default };
      }),
    ),
  );
  app.get<{ Params: { profile: string } }>('/profiles/:profile/openapi.json', { schema: { hide: true } }, async (request, reply) => {
    const profile = profiles.get(request.params.profile);
    if (!profile) return sendError(reply, profiles.notFound(request.params.profile), errors);
    return profileDocument((await document()) as Document, profile, catalog);
  });
}

/**
 * `whole` with its tool routes moved under the profile's prefix (`/tools`, `/tools/{name}`
 * and the call of each tool the profile lists; the others left out, with their hoisted
 * schemas), the other routes as they are.
 */
export function profileDocument(whole: Document, profile: Profile, catalog: ToolCatalog): Document {
  const dropped = new Set(catalog.list().filter((t) => !profile.lists(t)).map((t) => t.listing.name));
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(whole.paths ?? {})) {
    if (path !== '/tools' && !path.startsWith('/tools/')) paths[path] = item;
    else if (!dropped.has(path.slice('/tools/'.length))) paths[`/profiles/${profile.name}${path}`] = item;
  }
  // Hoisted recursive schemas are named `<tool>.<definition>` (openapi.ts, forDocument).
  const schemas = Object.fromEntries(Object.entries(whole.components?.schemas ?? {}).filter(([name]) => !dropped.has(name.split('.')[0]!)));
  return { ...whole, paths, components: { ...whole.components, schemas } };
}
