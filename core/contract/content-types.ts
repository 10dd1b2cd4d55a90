import type { ContentBlock } from '@modelcontextprotocol/server';
import type { JsonSchema } from '../lib/schema.js';
import type { CallContext } from './call-types.js';

/** MCP annotations of a resource or template: who it is for, how much it matters, when it changed. */
export interface ResourceAnnotations {
  readonly audience?: ReadonlyArray<'user' | 'assistant'>;
  /** From 0 (least important) to 1 (most). */
  readonly priority?: number;
  /** ISO 8601 with an offset, e.g. `2025-01-12T15:00:58Z`. */
  readonly lastModified?: string;
}

/**
 * Suggests values for one argument of a prompt or one variable of a resource template, for
 * `completion/complete`. `value` is what the user typed so far. Return at most a few hundred
 * values, best first: the client gets the first 100, with `total` and `hasMore`.
 */
export type Completer = (value: string, context: CompletionContext) => readonly string[] | Promise<readonly string[]>;

export interface CompletionContext extends CallContext {
  /** The values of the other arguments (or variables) the client has already filled in. */
  readonly arguments: Readonly<Record<string, string>>;
}

interface ResourceCommon {
  /** A short programmatic name, shown in lists; need not be unique. */
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The MIME type of the contents, used for contents whose reader gives none. */
  readonly mimeType?: string;
  readonly annotations?: ResourceAnnotations;
  /** Overrides `tools.timeoutMs` from the config for reads of this resource. */
  readonly timeoutMs?: number;
  /**
   * Called when the first session subscribes to `uri` (this resource's URI, or one its template
   * matches), before the subscription is confirmed: a throw (a GatewayError) refuses it. For a
   * plugin that must itself subscribe somewhere to learn of changes, as upstream does.
   */
  readonly onSubscribe?: (uri: string) => void | Promise<void>;
  /** Called when the last subscriber of `uri` unsubscribed or closed; failures are logged. */
  readonly onUnsubscribe?: (uri: string) => void | Promise<void>;
}

/** A resource with one fixed URI. */
export interface StaticResourceDefinition extends ResourceCommon {
  /** An absolute URI (`notes://readme`), unique across the gateway. */
  readonly uri: string;
  readonly uriTemplate?: never;
  /** The size of the raw contents in bytes, if known. */
  readonly size?: number;
}

/** A family of resources: every URI an RFC 6570 template (levels 1-3) matches. */
export interface ResourceTemplateDefinition extends ResourceCommon {
  /** e.g. `notes://notes/{id}` or `notes://search{?q,limit}`; unique across the gateway. */
  readonly uriTemplate: string;
  readonly uri?: never;
  /**
   * JSON Schema (`type: "object"`, string properties named after the template's variables)
   * that the variables of a URI must match before the reader runs; a mismatch is
   * RESOURCE_VARIABLES_INVALID. Without one, any value the template matches is accepted.
   */
  readonly variables?: JsonSchema;
  /** Completions for the template's variables, by variable name. */
  readonly complete?: Readonly<Record<string, Completer>>;
}

export type ResourceDefinition = StaticResourceDefinition | ResourceTemplateDefinition;

/**
 * One item of a resource's contents: a string (text), bytes (sent base64 as a `blob`), or an
 * object giving its own `uri` (a sub-resource) or `mimeType`. `uri` defaults to the URI read
 * and `mimeType` to the definition's.
 */
export type ResourceContent =
  | string
  | Uint8Array
  | { readonly uri?: string; readonly mimeType?: string; readonly text: string }
  | { readonly uri?: string; readonly mimeType?: string; readonly blob: Uint8Array | string };

/**
 * Reads a resource. `uri` is the URI asked for; `variables` are a template's variables,
 * validated against its `variables` schema (empty for a static resource). Return one content
 * item or several. Throw a GatewayError (`ctx.error(...)`) for failures the caller should see.
 */
export type ResourceReader = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  call: CallContext,
) => ResourceContent | readonly ResourceContent[] | Promise<ResourceContent | readonly ResourceContent[]>;

export interface PromptDefinition {
  /** snake_case, `^[a-z][a-z0-9_]{0,63}$` as for tools, unique across the gateway's prompts. */
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /**
   * JSON Schema with `type: "object"` whose properties all have `type: "string"` (MCP prompt
   * arguments are strings); `required` lists the required ones. The MCP `arguments` list
   * (name, description, required) is made from it, and every prompts/get is validated with it.
   */
  readonly arguments?: JsonSchema;
  /** Completions for the prompt's arguments, by argument name. */
  readonly complete?: Readonly<Record<string, Completer>>;
  /** Overrides `tools.timeoutMs` from the config for this prompt. */
  readonly timeoutMs?: number;
}

/** One message of a prompt: who says it, and one content block (text, image, audio, resource). */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock;
}

/**
 * Makes a prompt's messages from its validated arguments. A string is one user text message.
 * Throw a GatewayError (`ctx.error(...)`) for failures the caller should see.
 */
export type PromptGetter<Args = Record<string, string>> = (
  args: Args,
  call: CallContext,
) => string | readonly PromptMessage[] | Promise<string | readonly PromptMessage[]>;
