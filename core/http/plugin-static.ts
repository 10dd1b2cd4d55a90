import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../contract/errors.js';
import type { Gateway } from '../gateway/gateway.js';
import type { HttpGuard } from './http-guard.js';
import { sendError } from './http-reply.js';
import type { PreparedStatic } from '../plugins/plugin-route-table.js';
import { forbiddenRoute, routeCaller } from './plugin-routes.js';
import { STATIC_SEGMENT } from '../plugins/route-definitions.js';

/** What this file uses of the gateway. */
export type PluginStaticGateway = Pick<Gateway, 'errors' | 'log' | 'routes'>;

const TEXT = '; charset=utf-8';
const CONTENT_TYPES: Record<string, string> = {
  '.html': `text/html${TEXT}`,
  '.htm': `text/html${TEXT}`,
  '.css': `text/css${TEXT}`,
  '.js': `text/javascript${TEXT}`,
  '.mjs': `text/javascript${TEXT}`,
  '.json': `application/json${TEXT}`,
  '.map': `application/json${TEXT}`,
  '.txt': `text/plain${TEXT}`,
  '.md': `text/markdown${TEXT}`,
  '.csv': `text/csv${TEXT}`,
  '.xml': `application/xml${TEXT}`,
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** The media type served for a file name; bytes of unknown kinds are not sniffed (nosniff). */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Serves each plugin's static folder (`ctx.http.static`) at `/plugins/<plugin>/static/`.
 * A small implementation rather than @fastify/static: its `send` follows symlinks out of the
 * root and answers traversal with its own status, where we want STATIC_PATH_REFUSED and the
 * error table. Every file is found from the raw URL, each segment decoded once, and must lie
 * under the folder's real path after symlinks are resolved.
 */
export function registerPluginStatic(app: FastifyInstance, gateway: PluginStaticGateway, guard: HttpGuard): void {
  for (const folder of gateway.routes.statics) {
    const base = `/plugins/${folder.plugin}/${STATIC_SEGMENT}`;
    const admitted = (request: FastifyRequest, reply: FastifyReply) => {
      const { principal } = routeCaller(guard, request.raw);
      if (!principal || principal.mayCallRoute(folder.plugin)) return true;
      sendError(reply, forbiddenRoute(folder.plugin, principal), gateway.errors);
      return false;
    };
    // Relative links in the index page resolve against the folder only with its slash.
    app.get(base, { schema: { hide: true } }, (request, reply) => (admitted(request, reply) ? reply.redirect(`${base}/`, 301) : reply));
    app.get(`${base}/*`, { schema: { hide: true } }, async (request, reply) => {
      if (!admitted(request, reply)) return reply;
      const rest = request.raw.url!.split('?')[0]!.slice(base.length + 1);
      try {
        return await serveFile(folder, rest, request, reply);
      } catch (err) {
        return sendError(reply, asStaticError(err, gateway, rest), gateway.errors);
      }
    });
  }
}

async function serveFile(folder: PreparedStatic, rest: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const segments = decodeSegments(rest);
  let file = await inside(folder.root, join(folder.root, ...segments));
  let info = await stat(file);
  if (info.isDirectory()) {
    // A folder's URL without its slash would break the page's relative links.
    if (segments.length > 0 && segments.at(-1) !== '') return reply.redirect(`${request.raw.url!.split('?')[0]}/`, 301);
    if (folder.index === false) throw notFound();
    file = await inside(folder.root, join(file, folder.index));
    info = await stat(file);
  }
  if (!info.isFile()) throw notFound();
  // O_NOFOLLOW: the last component cannot have been swapped for a symlink since realpath.
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW);
  const opened = await handle.stat();
  const etag = `W/"${opened.size.toString(16)}-${Math.floor(opened.mtimeMs).toString(16)}"`;
  reply
    .header('etag', etag)
    .header('last-modified', opened.mtime.toUTCString())
    .header('cache-control', folder.maxAgeS > 0 ? `private, max-age=${folder.maxAgeS}` : 'no-cache')
    .header('x-content-type-options', 'nosniff');
  const match = request.headers['if-none-match'];
  if (match !== undefined && match.split(',').some((tag) => tag.trim() === etag)) {
    await handle.close();
    return reply.code(304).send();
  }
  reply.type(contentTypeOf(file)).header('content-length', opened.size);
  if (request.method !== 'HEAD') return reply.send(handle.createReadStream());
  // Fastify's HEAD route keeps the length set here for a stream (a string would reset it).
  await handle.close();
  return reply.send(Readable.from([]));
}

/** The URL's segments decoded, or a refusal: `..` in any spelling, slashes or NUL hidden in a segment. */
function decodeSegments(rest: string): string[] {
  const segments = rest.split('/');
  return segments.map((raw, i) => {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw new GatewayError('INVALID_REQUEST', 'The path is not valid percent-encoding.');
    }
    if (segment === '..' || segment === '.' || /[/\\\0]/.test(segment)) throw refused();
    // Empty segments only at the end (a folder's URL); dotfiles are not served.
    if ((segment === '' && i !== segments.length - 1) || segment.startsWith('.')) throw notFound();
    return segment;
  });
}

/** The real path of `path`, which must lie under `root` (itself a real path). */
async function inside(root: string, path: string): Promise<string> {
  const real = await realpath(path);
  if (real !== root && !real.startsWith(root + sep)) throw refused();
  return real;
}

function refused(): GatewayError {
  return new GatewayError('STATIC_PATH_REFUSED', 'The path leads outside the static folder; ask for a file inside it.');
}

function notFound(): GatewayError {
  return new GatewayError('NOT_FOUND', 'No such file in the static folder.');
}

function asStaticError(err: unknown, gateway: PluginStaticGateway, rest: string): GatewayError {
  if (err instanceof GatewayError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  // ELOOP: O_NOFOLLOW met a symlink swapped in after realpath.
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return notFound();
  if (code === 'ELOOP') return refused();
  gateway.log.error({ err, path: rest.slice(0, 200) }, 'static file failed');
  return new GatewayError('INTERNAL_ERROR', 'The file could not be read; the gateway log has the details.');
}
