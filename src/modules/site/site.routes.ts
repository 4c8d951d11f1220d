/**
 * The files a browser or a crawler asks any origin for. The icons (docs/web.md "Icons"):
 * `/favicon.ico`, which a browser asks for on any page that names no icon (share and mail pages),
 * the SVG the web app and the API reference name, the touch icon iOS asks for and the web app
 * manifest's icons. `/robots.txt` (docs/api.md "Share links and crawlers"): nothing here is for
 * crawlers. Public files, not API: hidden from the OpenAPI document.
 */
import type { FastifyReply } from 'fastify';
import { entityTag } from '../../http/conditional.js';
import type { FeatureRoutes } from '../../http/types.js';
import { drawRasterIcons, ICON_SVG, type RasterIcons } from './site-icon.js';

/**
 * A day, then revalidated (the routes are conditional: a 304 to the tag it has): the paths are
 * fixed, so a changed file must reach browsers that kept the old one.
 */
const CACHE_CONTROL = 'public, max-age=86400';

/** A file's bytes and its entity tag, computed once rather than by the conditional hook on every request. */
interface SiteFile {
  body: Buffer;
  tag: string;
}
const fileOf = (body: Buffer): SiteFile => ({ body, tag: entityTag(body) });

const SVG_FILE = fileOf(ICON_SVG);

type RasterFiles = Record<keyof RasterIcons, SiteFile>;

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

/**
 * Every page here is a signed-in app, an API, or a share link that counts each view and is meant
 * for the people it was sent to: a crawler that finds a link (in a public chat, a forwarded mail)
 * and honours robots.txt fetches nothing, so it neither counts as a view nor keeps a copy.
 */
const ROBOTS_FILE = fileOf(
  Buffer.from(
    '# Chronicle: share links are for the people they were sent to; nothing here is for crawlers.\n' + 'User-agent: *\n' + 'Disallow: /\n',
  ),
);

function sendFile(reply: FastifyReply, type: string, file: SiteFile): FastifyReply {
  return reply
    .headers({
      'Content-Type': type,
      ETag: file.tag,
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
      // Opened as a page of its own, a file (an SVG above all) runs nothing and loads nothing.
      'Content-Security-Policy': "default-src 'none'; sandbox",
    })
    .send(file.body);
}

export const siteRoutes: FeatureRoutes = (app, _options, done) => {
  const options = { config: { scope: 'public', conditional: true }, schema: { hide: true } } as const;
  app.get('/robots.txt', options, (_request, reply) => sendFile(reply, 'text/plain; charset=utf-8', ROBOTS_FILE));
  app.get('/favicon.svg', options, (_request, reply) => sendFile(reply, 'image/svg+xml', SVG_FILE));
  app.get('/favicon.ico', options, async (_request, reply) => sendFile(reply, 'image/x-icon', (await rasterIcons()).ico));
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
    app.get(url, options, async (_request, reply) => sendFile(reply, 'image/png', (await rasterIcons())[name]));
  }
  done();
};
