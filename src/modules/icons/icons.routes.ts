/**
 * The origin's icons (docs/web.md "Icons"): `/favicon.ico`, which a browser asks for on any page
 * that names no icon (share and mail pages), the SVG the web app and the API reference name, the
 * touch icon iOS asks for and the web app manifest's icons. Public files, not API: hidden from the
 * OpenAPI document.
 */
import type { FastifyReply } from 'fastify';
import { entityTag } from '../../http/conditional.js';
import type { FeatureRoutes } from '../../http/types.js';
import { drawRasterIcons, ICON_SVG, type RasterIcons } from './site-icon.js';

/**
 * A day, then revalidated (the routes are conditional: a 304 to the tag it has): the paths are
 * fixed, so a changed icon must reach browsers that kept the old one.
 */
const CACHE_CONTROL = 'public, max-age=86400';

/** A file's bytes and its entity tag, computed once rather than by the conditional hook on every request. */
interface IconFile {
  body: Buffer;
  tag: string;
}
const fileOf = (body: Buffer): IconFile => ({ body, tag: entityTag(body) });

const SVG_FILE = fileOf(ICON_SVG);

type RasterFiles = Record<keyof RasterIcons, IconFile>;

/** Drawn on the first request that needs them and kept; a failed drawing is tried again next time. */
let raster: Promise<RasterFiles> | undefined;
function rasterIcons(): Promise<RasterFiles> {
  raster ??= drawRasterIcons().then(
    (icons) => Object.fromEntries(Object.entries(icons).map(([name, body]: [string, Buffer]) => [name, fileOf(body)])) as RasterFiles,
    (error: unknown) => {
      raster = undefined;
      throw error;
    },
  );
  return raster;
}

function sendIcon(reply: FastifyReply, type: string, file: IconFile): FastifyReply {
  return reply
    .headers({
      'Content-Type': type,
      ETag: file.tag,
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      // Opened as a page of its own, an SVG runs nothing and loads nothing.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    })
    .send(file.body);
}

export const iconRoutes: FeatureRoutes = (app, _options, done) => {
  const options = { config: { scope: 'public', conditional: true }, schema: { hide: true } } as const;
  app.get('/favicon.svg', options, (_request, reply) => sendIcon(reply, 'image/svg+xml', SVG_FILE));
  app.get('/favicon.ico', options, async (_request, reply) => sendIcon(reply, 'image/x-icon', (await rasterIcons()).ico));
  const pngs: [string, keyof RasterIcons][] = [
    // iOS asks for both names when a page names no touch icon.
    ['/apple-touch-icon.png', 'touch'],
    ['/apple-touch-icon-precomposed.png', 'touch'],
    // The web app's manifest (web/public/manifest.webmanifest) names these.
    ['/icon-192.png', 'app192'],
    ['/icon-512.png', 'app512'],
    ['/icon-maskable-512.png', 'maskable512'],
  ];
  for (const [url, name] of pngs) {
    app.get(url, options, async (_request, reply) => sendIcon(reply, 'image/png', (await rasterIcons())[name]));
  }
  done();
};
