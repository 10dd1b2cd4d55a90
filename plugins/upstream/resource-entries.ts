import { ProtocolError, ProtocolErrorCode, type Client, type Resource, type ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/client';
import type { CallContext, ResourceContent, ResourceDefinition } from '@mcp-gateway/core';
import { askCompletions } from './completions.js';
import { UNCACHED } from './eras.js';
import type { MirrorEntry } from './mirror.js';
import { cursorParams, listAll } from './paging.js';
import type { ServerLink } from './server-link.js';

/** The server's resources and templates (pages followed up to `max` each), or none when it offers no resources. */
export async function listResources(client: Client, max: number): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
  if (!client.getServerCapabilities()?.resources || max === 0) return { resources: [], templates: [] };
  const resources = await listAll(async (cursor) => {
    const { resources, nextCursor } = await client.request({ method: 'resources/list', params: cursorParams(cursor) });
    return { items: resources, nextCursor };
  }, max);
  return { resources, templates: await listTemplates(client, max) };
}

/** A server may offer resources and no templates, and answer their list with "method not found". */
async function listTemplates(client: Client, max: number): Promise<ResourceTemplate[]> {
  try {
    return await listAll(async (cursor) => {
      const { resourceTemplates, nextCursor } = await client.request({ method: 'resources/templates/list', params: cursorParams(cursor) });
      return { items: resourceTemplates, nextCursor };
    }, max);
  } catch (err) {
    if (err instanceof ProtocolError && err.code === ProtocolErrorCode.MethodNotFound) return [];
    throw err;
  }
}

/**
 * The gateway's entries for a server's resources and templates, under their own URIs (a URI
 * names a thing, it is not prefixed). Reads go to the server; the first subscriber of a URI
 * subscribes the gateway at the server, and its updates reach every subscriber here.
 */
export function resourceEntries(link: ServerLink, listed: { resources: readonly Resource[]; templates: readonly ResourceTemplate[] }): MirrorEntry[] {
  const capabilities = link.server.capabilities();
  const subscribable = capabilities?.resources?.subscribe === true;
  const completes = capabilities?.completions !== undefined;
  const hooks = subscribable ? subscriptionHooks(link) : {};
  const common = (entry: Resource | ResourceTemplate) => ({
    name: entry.name,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    ...(entry.description === undefined ? {} : { description: entry.description }),
    ...(entry.mimeType === undefined ? {} : { mimeType: entry.mimeType }),
    ...(entry.annotations === undefined ? {} : { annotations: entry.annotations }),
    timeoutMs: link.limitMs,
    ...hooks,
  });
  const statics = listed.resources.map((resource): MirrorEntry => {
    const definition: ResourceDefinition = { uri: resource.uri, ...common(resource), ...(resource.size === undefined ? {} : { size: resource.size }) };
    return entry(link, resource.uri, definition);
  });
  const templates = listed.templates.map((template): MirrorEntry => {
    const complete = completes ? askCompletions(link, { type: 'ref/resource', uri: template.uriTemplate }, templateVariables(template.uriTemplate)) : undefined;
    const definition: ResourceDefinition = { uriTemplate: template.uriTemplate, ...common(template), ...(complete ? { complete } : {}) };
    return entry(link, template.uriTemplate, definition);
  });
  return [...statics, ...templates];
}

function entry(link: ServerLink, key: string, definition: ResourceDefinition): MirrorEntry {
  return {
    upstream: key,
    name: key,
    fingerprint: JSON.stringify(definition),
    add: () => link.ctx.live.resource(definition, (uri, _variables, call) => readResource(link, uri, call)),
  };
}

async function readResource(link: ServerLink, uri: string, call: CallContext): Promise<ResourceContent[]> {
  const result = await link.request(call, (client, options) => client.readResource({ uri }, { ...options, ...UNCACHED }));
  return result.contents.map((item) => {
    const described = { uri: item.uri, ...(item.mimeType === undefined ? {} : { mimeType: item.mimeType }) };
    return 'text' in item && typeof item.text === 'string' ? { ...described, text: item.text } : { ...described, blob: String((item as { blob?: unknown }).blob ?? '') };
  });
}

function subscriptionHooks(link: ServerLink): Pick<ResourceDefinition, 'onSubscribe' | 'onUnsubscribe'> {
  const noCall = { signal: link.ctx.signal };
  return {
    onSubscribe: async (uri) => {
      const { server } = link;
      if (server.modern) {
        // The 2026-07-28 revision subscribes through the listen stream: a new one, with this URI too.
        server.subscribed.add(uri);
        const watched = await server.listenAgain().catch((err: unknown) => {
          server.subscribed.delete(uri);
          throw err;
        });
        if (!watched.has(uri)) {
          server.subscribed.delete(uri);
          throw link.error('UPSTREAM_ERROR', `The upstream server "${link.config.name}" did not agree to watch ${uri} (its subscriptions/listen left it out).`, { server: link.config.name, uri });
        }
        return;
      }
      await link.request(noCall, (client, options) => client.subscribeResource({ uri }, options));
      server.subscribed.add(uri);
    },
    onUnsubscribe: async (uri) => {
      const { server } = link;
      server.subscribed.delete(uri);
      // Best effort: a server that restarted has forgotten the subscription anyway.
      if (server.state !== 'connected') return;
      if (server.modern) await server.listenAgain();
      else await link.request(noCall, (client, options) => client.unsubscribeResource({ uri }, options));
    },
  };
}

/** The variable names of an RFC 6570 template: `{a,b*}`, `{?q,limit:3}` give a, b, q, limit. */
export function templateVariables(uriTemplate: string): string[] {
  const names = new Set<string>();
  for (const [, body] of uriTemplate.matchAll(/\{[+#./;?&]?([^}]*)\}/g)) {
    for (const spec of body!.split(',')) {
      const name = spec.replace(/(\*|:\d+)$/, '');
      if (name) names.add(name);
    }
  }
  return [...names];
}
