/**
 * The public viewer, /share/:token (docs/api.md "Public viewer"). It is its own encapsulated plugin:
 * only here are form bodies parsed, and every answer, errors included, is an HTML page with the
 * viewer's headers, never problem+json.
 */
import formbody from '@fastify/formbody';
import type { Readable } from 'node:stream';
import type { FastifyError, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { route } from '../../http/route.js';
import type { FeatureRoutes } from '../../http/types.js';
import { VIEWER_RESPONSE_HEADERS } from '../../http/response-headers.js';
import { isDatabaseUnavailable } from '../../db/errors.js';
import { NOT_FOUND_PAGE, VIEWER_HEADERS, renderNoticePage, renderPasscodePage, reportPageHeaders } from '../../render/share-page.js';
import { PASSCODE_MAX_INPUT } from '../../lib/secrets.js';
import { acceptedEncoding } from '../../lib/compression.js';
import { createViewer, DOWNLOAD_GRANT_SECONDS, type DownloadFormat, type DownloadOutcome, type ViewerOutcome } from './viewer.service.js';

/** A passcode form is a few hundred bytes; nothing bigger is read. */
const FORM_BODY_LIMIT = 8 * 1024;

/**
 * For failures on our side (the database away, a bug). Deliberately plain: it must not claim the
 * link is gone, and it needs no stylesheet, so the viewer's CSP holds for it as it is.
 */
const UNAVAILABLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<title>Temporarily unavailable – Chronicle</title>
</head>
<body>
<h1>This page is temporarily unavailable</h1>
<p>Please try again in a moment.</p>
</body>
</html>
`;

const TokenParams = Type.Object({ token: Type.String() });

const htmlResponse = (description: string) => ({ description, content: { 'text/html': { schema: Type.String() } } });
const openResponses = {
  200: htmlResponse('The report page, or the passcode prompt.'),
  404: htmlResponse('The same page for a malformed, unknown, revoked or expired link, and for any request the viewer cannot read.'),
  503: htmlResponse('The database is unavailable; see Retry-After.'),
};

/** The passcode prompt's form (docs/api.md "Public viewer"), for the OpenAPI document. */
const PASSCODE_FORM = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        properties: { passcode: { type: 'string', maxLength: PASSCODE_MAX_INPUT, description: "The link's passcode." } },
        required: ['passcode'],
      },
    },
  },
};
const unlockResponses = {
  ...openResponses,
  401: htmlResponse('Wrong passcode: the prompt again.'),
  429: htmlResponse('Too many wrong passcodes for this link; see Retry-After.'),
};

/** Every viewer answer carries the same headers (`VIEWER_HEADERS`), declared for each status. */
function viewerHeaders(responses: Record<number, unknown>) {
  return Object.fromEntries(Object.keys(responses).map((status) => [status, VIEWER_RESPONSE_HEADERS]));
}

function sendPage(
  reply: FastifyReply,
  status: number,
  html: string | Buffer | Readable,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({ ...VIEWER_HEADERS, ...headers })
    .send(html);
}

function sendOutcome(reply: FastifyReply, outcome: ViewerOutcome): FastifyReply {
  switch (outcome.kind) {
    case 'report': {
      // The one answer that may go out compressed (its headers say Vary: Accept-Encoding).
      const headers = reportPageHeaders(outcome.accentColor);
      return sendPage(reply, 200, outcome.html, outcome.encoding ? { ...headers, 'Content-Encoding': outcome.encoding } : headers);
    }
    case 'passcode-form':
      return sendPage(reply, 200, renderPasscodePage({ invalid: false }));
    case 'wrong-passcode':
      return sendPage(reply, 401, renderPasscodePage({ invalid: true }));
    case 'rate-limited':
      return sendPage(reply, 429, renderPasscodePage({ invalid: false, retryAfterSeconds: outcome.retryAfterSeconds }), {
        'Retry-After': String(outcome.retryAfterSeconds),
      });
    case 'not-found':
      return sendPage(reply, 404, NOT_FOUND_PAGE);
  }
}

const DownloadQuery = Type.Object({
  grant: Type.Optional(
    Type.String({
      maxLength: 128,
      description: `What the unlocked page of a passcode link hands out: valid for ${DOWNLOAD_GRANT_SECONDS / 60} minutes, for this link only.`,
    }),
  ),
});

const downloadResponses = {
  200: {
    description: 'The file, as an attachment.',
    content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) }, 'text/csv': { schema: Type.String() } },
  },
  303: htmlResponse('A passcode link without a valid grant: to the link, whose page asks for the passcode.'),
  404: htmlResponse('The same page as for a dead link.'),
  409: htmlResponse('The version has no such file (a version from before rows were kept has no CSV; a PDF past its bounds).'),
  429: htmlResponse('This client has enough downloads running; see Retry-After.'),
  503: htmlResponse('The file could not be made in time, or the database is unavailable; see Retry-After.'),
};

function sendDownload(reply: FastifyReply, token: string, outcome: DownloadOutcome): FastifyReply {
  const back = `/share/${encodeURIComponent(token)}`;
  switch (outcome.kind) {
    case 'file':
      return reply
        .code(200)
        .headers({
          ...VIEWER_HEADERS,
          'Content-Type': outcome.contentType,
          'Content-Disposition': outcome.disposition,
          Vary: 'Accept-Encoding',
          ...(outcome.encoding ? { 'Content-Encoding': outcome.encoding } : {}),
        })
        .send(Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength));
    case 'unlock-first':
      return reply
        .code(303)
        .headers({ ...VIEWER_HEADERS, Location: back })
        .send(renderNoticePage('Enter the passcode first', 'Open the report and enter its passcode to download it.', back));
    case 'no-file':
      return sendPage(reply, 409, renderNoticePage('This download is not available', outcome.message, back));
    case 'rate-limited':
      return sendPage(
        reply,
        429,
        renderNoticePage('Downloads are busy', 'Your other downloads are still being made; try again in a moment.', back),
        {
          'Retry-After': String(outcome.retryAfterSeconds),
        },
      );
    case 'unavailable':
      return sendPage(
        reply,
        503,
        renderNoticePage('The file is not ready', 'It could not be made right now; try again in a moment.', back),
        {
          'Retry-After': String(outcome.retryAfterSeconds),
        },
      );
    case 'not-found':
      return sendPage(reply, 404, NOT_FOUND_PAGE);
  }
}

/** Registered under /share; encapsulated, so its parsers and error handlers stay its own. */
export const viewerRoutes: FeatureRoutes = (app, { ctx }, done) => {
  const viewer = createViewer(ctx);
  app.addHook('onClose', () => viewer.close());
  // Forms only: a JSON or any other body is refused here, and becomes the uniform 404 below.
  app.removeAllContentTypeParsers();
  void app.register(formbody, { bodyLimit: FORM_BODY_LIMIT });

  // A request the viewer cannot read (unsupported type, too large, broken body) gets the same
  // 404 as a dead link: a browser posting our own form never sees it, and the answer does not
  // depend on the token, so it tells nothing about the link.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return sendPage(reply, 404, NOT_FOUND_PAGE);
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return sendPage(reply, 503, UNAVAILABLE_PAGE, { 'Retry-After': '5' });
    }
    request.log.error({ err: error }, 'unhandled error in the public viewer');
    return sendPage(reply, 500, UNAVAILABLE_PAGE);
  });
  app.setNotFoundHandler((_request, reply) => sendPage(reply, 404, NOT_FOUND_PAGE));

  const page = { scope: 'public', tags: ['viewer'], params: TokenParams } as const;
  app.route(
    route({
      ...page,
      method: 'GET',
      url: '/:token',
      // A HEAD is not a page view and must not count as one; it gets the viewer's 404.
      exposeHeadRoute: false,
      operationId: 'viewShare',
      summary: 'Open a share link',
      description:
        'Public. The shared report as HTML, or the passcode prompt. An unknown, revoked or expired link answers 404. The report goes out compressed (`br`, else `gzip`) when Accept-Encoding allows it, from a copy made on the first such view of the link; while the server is busy compressing another page it goes out as it is.',
      responseHeaders: { ...viewerHeaders(openResponses), 200: [...VIEWER_RESPONSE_HEADERS, 'Vary', 'Content-Encoding'] },
      response: openResponses,
      handler: async (request, reply) => {
        return sendOutcome(reply, await viewer.open(request.params.token, acceptedEncoding(request.headers['accept-encoding'])));
      },
    }),
  );
  app.route(
    route({
      ...page,
      method: 'POST',
      url: '/:token',
      operationId: 'unlockShare',
      summary: 'Unlock a passcode link',
      description:
        'Public. Form field `passcode` (application/x-www-form-urlencoded). A wrong passcode is 401; too many attempts are 429 with Retry-After. An unknown link answers 404. The unlocked page, which carries download links with a grant of its own, goes out compressed (`br`, else `gzip`) when Accept-Encoding allows it and the server is not busy compressing another page.',
      documentedBody: PASSCODE_FORM,
      responseHeaders: { ...viewerHeaders(unlockResponses), 200: [...VIEWER_RESPONSE_HEADERS, 'Vary', 'Content-Encoding'] },
      response: unlockResponses,
      handler: async (request, reply) => {
        const form = request.body as Record<string, unknown> | undefined;
        const outcome = await viewer.unlock(
          request.params.token,
          form?.passcode,
          request.ip,
          acceptedEncoding(request.headers['accept-encoding']),
        );
        // Like every rate-limit refusal, held for REFUSAL_DELAY_MS first (refusal-delay.ts).
        if (outcome.kind === 'rate-limited') await ctx.refusalDelay.hold();
        return sendOutcome(reply, outcome);
      },
    }),
  );
  for (const format of ['pdf', 'csv'] as const satisfies readonly DownloadFormat[]) {
    app.route(
      route({
        ...page,
        method: 'GET',
        url: `/:token/export.${format}`,
        exposeHeadRoute: false,
        operationId: format === 'pdf' ? 'downloadSharePdf' : 'downloadShareCsv',
        summary: `Download the shared version as ${format.toUpperCase()}`,
        description:
          `Public. The shared version's ${format === 'pdf' ? 'PDF (the document as the page shows it)' : 'CSV (one row per entry it was rendered from)'}, ` +
          "as an attachment; every download counts in the link's `downloadCount`, apart from its views. A passcode link needs the " +
          `\`grant\` its unlocked page hands out (valid ${DOWNLOAD_GRANT_SECONDS / 60} minutes, naming the link, never the passcode); without one ` +
          'the answer is a 303 to the link. An unknown, revoked or expired link answers 404.',
        querystring: DownloadQuery,
        responseHeaders: { ...viewerHeaders(downloadResponses), 200: [...VIEWER_RESPONSE_HEADERS, 'Vary', 'Content-Encoding'] },
        response: downloadResponses,
        handler: async (request, reply) => {
          const { token } = request.params;
          const encoding = acceptedEncoding(request.headers['accept-encoding']);
          return sendDownload(reply, token, await viewer.download(token, format, request.query.grant, request.ip, encoding));
        },
      }),
    );
  }
  done();
};
