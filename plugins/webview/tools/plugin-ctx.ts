import type { PluginContext } from '../../../core/index.js';
import type { WebviewConfig } from '../config.js';
import type { WebviewErrorCode } from '../errors.js';

/** The plugin's context as its tools see it. */
export type PluginCtx = PluginContext<WebviewConfig, WebviewErrorCode>;
