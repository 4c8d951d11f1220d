import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { IdParams, NoContent } from '../../http/schemas.js';
import { actorOf, HEAVY_RATE_COST } from '../auth/auth.js';
import { NOT_MEMBER } from '../workspaces/workspaces.schemas.js';
import { BrandingSchema, LogoParams, LogoQuery } from './branding.schemas.js';
import { LOGO_MAX_BYTES, LOGO_MAX_INPUT_PIXELS, LOGO_MAX_SIZE, LOGO_TYPES } from './logo-image.js';
import * as service from './branding.service.js';

const tags = ['workspaces'];

const binary = { schema: { type: 'string', format: 'binary' } };

/** The upload, as the OpenAPI document describes it: the image itself, no JSON around it. */
const LOGO_BODY = {
  required: true,
  description: `The image itself: PNG, JPEG or WebP, at most ${LOGO_MAX_BYTES / 1024 / 1024} MiB and ${LOGO_MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
  content: Object.fromEntries(Object.keys(LOGO_TYPES).map((type) => [type, binary])),
};

/** The logo upload and removal, under /api/v1. Only here is a body other than JSON read. */
export const brandingRoutes: FeatureRoutes = (app, { ctx }, done) => {
  // Any type is read as bytes (up to the body limit) so the service can answer a wrong one with a
  // 415 that says what to send; the route is authenticated before its body is read.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES }, (_request, body, parsed) => {
    parsed(null, body);
  });

  app.route(
    route({
      method: 'PUT',
      url: '/workspaces/:id/logo',
      scope: 'write',
      rateCost: HEAVY_RATE_COST,
      tags,
      operationId: 'putWorkspaceLogo',
      summary: "Set the workspace's logo",
      description:
        `Workspace admins and owners (403 for members). The body is the image itself with its Content-Type (image/png, ` +
        `image/jpeg or image/webp; another is 415), at most 1 MiB (413). The server decodes it (400 for bytes that are not ` +
        `a readable image of that type, or over ${LOGO_MAX_INPUT_PIXELS / 1_000_000} megapixels) and keeps it re-encoded ` +
        `as a PNG fitting ${LOGO_MAX_SIZE} x ${LOGO_MAX_SIZE} pixels, without metadata. Decoding is work like a render: ` +
        `it costs ${HEAVY_RATE_COST} request units plus the body's size, and runs as one of the caller's renders. ${NOT_MEMBER}`,
      params: IdParams,
      documentedBody: LOGO_BODY,
      bodyLimit: LOGO_MAX_BYTES,
      response: { 200: BrandingSchema },
      problems: [413, 415],
      handler: async (request) => service.putLogo(ctx, actorOf(request), request.params.id, request.headers['content-type'], request.body),
    }),
  );
  app.route(
    route({
      method: 'DELETE',
      url: '/workspaces/:id/logo',
      scope: 'write',
      tags,
      operationId: 'deleteWorkspaceLogo',
      summary: "Remove the workspace's logo",
      description: `Workspace admins and owners (403 for members); 204 whether or not there was one. ${NOT_MEMBER}`,
      params: IdParams,
      response: { 204: NoContent },
      handler: async (request, reply) => {
        await service.deleteLogo(ctx, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    }),
  );
  done();
};

/** A year: the longest lifetime caches honour, for a URL whose content never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The public logo, under /branding: share pages show it from their own origin. */
export const logoRoutes: FeatureRoutes = (app, { ctx }, done) => {
  app.route(
    route({
      method: 'GET',
      url: '/branding/:workspaceId/logo.png',
      scope: 'public',
      tags,
      operationId: 'getWorkspaceLogo',
      summary: "A workspace's logo",
      description:
        'Public, like the share pages that show it: the PNG the server made, with `nosniff`. With `v` naming the current ' +
        'logo (as the URLs in the API and on share pages do) it is cached for good (`immutable`); otherwise revalidated ' +
        'each time. 404 when the workspace has no logo.',
      params: LogoParams,
      querystring: LogoQuery,
      response: { 200: { description: 'The logo.', content: { 'image/png': binary } } },
      responseHeaders: { 200: ['Cache-Control', 'X-Content-Type-Options'] },
      problems: [400, 404, 503],
      handler: async (request, reply) => {
        const logo = await service.publicLogo(ctx, request.params.workspaceId, request.query.v);
        return reply
          .headers({
            'Content-Type': 'image/png',
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': logo.immutable ? IMMUTABLE : 'no-cache',
            'Content-Security-Policy': "default-src 'none'; sandbox",
          })
          .send(logo.png);
      },
    }),
  );
  done();
};
