import type { Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/server';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { GatewayError, isGatewayError } from '../contract/errors.js';
import type { ResourceDefinition, ResourceReader } from '../contract/content-types.js';
import { CallPipeline, type CallPipelineOptions } from './call-pipeline.js';
import { contentAnswer, settled, type ContentOutcome, type ContentRequest } from './content-calls.js';
import { runCompleter, type Completion } from './completions.js';
import { prepareResource, type RegisteredResource } from './resource-definition.js';
import { toResourceContents, type ResourceContents } from './resource-contents.js';
import { describeSchemaErrors } from '../lib/schema.js';
import { isValidUri } from './uri-template.js';

export type { RegisteredResource };

/** A URI resolved to the resource that serves it, with a template's variables. */
export interface ResolvedResource {
  readonly resource: RegisteredResource;
  readonly variables: Readonly<Record<string, string>>;
}

/**
 * Every resource and resource template of the gateway, shaped like the tool catalog: URIs
 * and templates unique across plugins, template variables validated with the gateway's
 * Ajv2020, reads timed out, cancellable, mapped to codes, audited and counted.
 * A URI is served by the static resource with exactly that URI, else by the first template
 * (in the order they were added) that matches it.
 */
export class ResourceCatalog {
  readonly #static = new Map<string, RegisteredResource>();
  readonly #templates = new Map<string, RegisteredResource>();
  readonly #pipeline: CallPipeline;
  readonly #ajv: Ajv2020;
  readonly #changeListeners: Array<() => void> = [];

  /** `pipeline`: the gateway's one path of every call; a catalog of its own makes one from the options. */
  constructor(options: CallPipelineOptions & { ajv: Ajv2020; pipeline?: CallPipeline }) {
    this.#pipeline = options.pipeline ?? new CallPipeline(options);
    this.#ajv = options.ajv;
  }

  /** Checks and compiles a definition without adding it. Throws RESOURCE_DEFINITION_INVALID. */
  prepare(plugin: string, definition: ResourceDefinition, reader: ResourceReader): RegisteredResource {
    const resource = prepareResource(this.#ajv, plugin, definition, reader, this.#pipeline.options.defaultTimeoutMs);
    const taken = this.#owner(resource);
    if (taken) throw clash(resource, taken);
    return resource;
  }

  /** Adds prepared entries together, or none of them when one's URI or template is taken. */
  add(resources: readonly RegisteredResource[]): void {
    const batch = new Map<string, RegisteredResource>();
    for (const resource of resources) {
      const taken = this.#owner(resource) ?? batch.get(resource.key);
      if (taken) throw clash(resource, taken);
      batch.set(resource.key, resource);
    }
    for (const resource of resources) (resource.template ? this.#templates : this.#static).set(resource.key, resource);
    if (resources.length > 0) this.#changed();
  }

  /** Removes entries (a live resource withdrawn, a plugin closing); others are left alone. */
  remove(resources: readonly RegisteredResource[]): void {
    let removed = false;
    for (const resource of resources) {
      const map = resource.template ? this.#templates : this.#static;
      if (map.get(resource.key) === resource) removed = map.delete(resource.key) || removed;
    }
    if (removed) this.#changed();
  }

  /** Called after every change of the lists (for notifications/resources/list_changed). */
  onChange(listener: () => void): void {
    this.#changeListeners.push(listener);
  }

  /** Static resources and templates, in the order they were added. */
  list(): RegisteredResource[] {
    return [...this.#static.values(), ...this.#templates.values()];
  }

  /** The resources/list entries `allowsPlugin` lets a caller see. */
  resources(allowsPlugin?: (plugin: string) => boolean): Resource[] {
    return [...this.#static.values()].filter((r) => allowsPlugin?.(r.plugin) ?? true).map((r) => r.resource!);
  }

  /** The resources/templates/list entries `allowsPlugin` lets a caller see. */
  templates(allowsPlugin?: (plugin: string) => boolean): ResourceTemplate[] {
    return [...this.#templates.values()].filter((r) => allowsPlugin?.(r.plugin) ?? true).map((r) => r.resourceTemplate!);
  }

  get size(): number {
    return this.#static.size + this.#templates.size;
  }

  /**
   * The resource serving `uri`, or undefined. Throws INVALID_URI for a string that is not an
   * absolute URI, or whose escapes a template would decode to something that is not UTF-8.
   */
  resolve(uri: string): ResolvedResource | undefined {
    if (!isValidUri(uri)) throw invalidUri(uri);
    const exact = this.#static.get(uri);
    if (exact) return { resource: exact, variables: {} };
    for (const resource of this.#templates.values()) {
      let variables: Record<string, string> | undefined;
      try {
        variables = resource.template!.match(uri);
      } catch {
        throw new GatewayError('INVALID_URI', `${shorten(uri)}: a %XX escape does not decode to UTF-8 text.`);
      }
      if (variables) return { resource, variables };
    }
    return undefined;
  }

  /** Reads `uri` for a caller. Never throws: every failure is an outcome with a code. */
  read(uri: string, request: ContentRequest): Promise<ContentOutcome<ResourceContents>> {
    let found: ResolvedResource | undefined;
    let lookupError: GatewayError | undefined;
    try {
      found = this.resolve(uri);
    } catch (err) {
      // INVALID_URI, or a template whose matcher threw.
      lookupError = isGatewayError(err) ? err : new GatewayError('INTERNAL_ERROR', `Reading ${shorten(uri)} failed unexpectedly; the gateway log has the details.`, { cause: err });
      if (lookupError.code === 'INTERNAL_ERROR') this.#pipeline.options.log.error({ err, uri: shorten(uri) }, 'resource read failed');
    }
    const resource = found?.resource;
    const variables = found?.variables ?? {};
    return settled(
      this.#pipeline.invoke({
        kind: 'resource',
        name: uri,
        target: resource && { plugin: resource.plugin, label: `resource ${shorten(uri)}`, timeoutMs: resource.timeoutMs },
        unmatched: () => lookupError ?? notFound(uri),
        entry: resource?.key,
        args: variables,
        request,
        check: () => (request.allowsPlugin?.(resource!.plugin) === false ? forbidden(resource!, request) : invalidVariables(uri, resource!, variables)),
        handler: async (call) => toResourceContents(await resource!.reader(uri, variables, call), uri, resource!.definition.mimeType),
        answer: contentAnswer,
      }),
    );
  }

  /** Values for `variable` of the template `uriTemplate` (completion/complete with ref/resource). */
  complete(uriTemplate: string, variable: string, value: string, args: Readonly<Record<string, string>>, request: ContentRequest): Promise<ContentOutcome<Completion>> {
    const resource = this.#templates.get(uriTemplate) ?? this.#static.get(uriTemplate);
    const target = resource && { plugin: resource.plugin, label: `resource template ${uriTemplate}`, timeoutMs: resource.timeoutMs };
    const completer = resource?.template ? resource.complete[variable] : undefined;
    return runCompleter(this.#pipeline, { name: uriTemplate, target, unmatched: () => notFound(uriTemplate), forbidden: () => forbidden(resource!, request) }, completer, variable, value, args, request);
  }

  #owner(resource: RegisteredResource): RegisteredResource | undefined {
    return (resource.template ? this.#templates : this.#static).get(resource.key);
  }

  #changed(): void {
    for (const listener of this.#changeListeners) listener();
  }
}

/** A URI in a message: it comes from outside, so a long one is cut. */
function shorten(uri: string): string {
  return uri.length > 200 ? `${uri.slice(0, 200)}…` : uri;
}

function clash(resource: RegisteredResource, taken: RegisteredResource): GatewayError {
  const what = resource.template ? 'uriTemplate' : 'uri';
  return new GatewayError('RESOURCE_DEFINITION_INVALID', `Plugin "${resource.plugin}", resource "${resource.key}": the ${what} is taken by plugin "${taken.plugin}".`);
}

export function invalidUri(uri: unknown): GatewayError {
  const shown = typeof uri === 'string' ? `"${shorten(uri)}"` : `a ${typeof uri}`;
  return new GatewayError('INVALID_URI', `${shown} is not an absolute URI: give a scheme (such as "notes:") and only URI characters, with others %XX-escaped.`);
}

export function notFound(uri: string): GatewayError {
  return new GatewayError('RESOURCE_NOT_FOUND', `No resource "${shorten(uri)}". List the resources and templates (resources/list, resources/templates/list or GET /resources).`);
}

/** RESOURCE_VARIABLES_INVALID when a template's variables break its schema; undefined when they pass. */
function invalidVariables(uri: string, resource: RegisteredResource, variables: Readonly<Record<string, string>>): GatewayError | undefined {
  const validate = resource.validateVariables;
  if (!validate || validate(variables)) return undefined;
  const details = describeSchemaErrors(validate.errors);
  const summary = details.map((d) => `${d.path || '(variables)'} ${d.message}`).join('; ');
  return new GatewayError('RESOURCE_VARIABLES_INVALID', `${shorten(uri)} matches ${resource.key}, but ${summary}.`, { details });
}

function forbidden(resource: RegisteredResource, request: ContentRequest): GatewayError {
  return new GatewayError('FORBIDDEN', `The API key "${request.caller.identity}" has no scope for the resources of plugin ${resource.plugin} (it needs "*" or "plugin:${resource.plugin}").`);
}
