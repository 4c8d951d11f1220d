/**
 * Workspace branding (docs/api.md "Branding"): its rules and who may set it, the logo's upload,
 * re-encoding and public URL, and the share page that shows it, on a real database.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingOf } from '../../src/modules/branding/branding.service.js';
import { accentStylesheet } from '../../src/render/share-page.js';
import { newTeam } from '../helpers/factories.js';
import { newReport } from '../helpers/report-factories.js';
import { buildTestApp, expectProblem, readOnlyToken, type TestContext, type TestUser } from '../helpers/test-app.js';

let t: TestContext;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let outsider: TestUser;
let workspaceId: string;

beforeAll(async () => {
  t = await buildTestApp();
  const team = await newTeam(t);
  ({ owner, admin, plain: member, outsider } = team);
  workspaceId = team.workspace.id;
});
afterAll(() => t.close());

const workspaceUrl = (id = workspaceId) => `/api/v1/workspaces/${id}`;
const logoUrl = (id = workspaceId) => `/api/v1/workspaces/${id}/logo`;
const patchBranding = (branding: unknown, token = owner.token, id = workspaceId) => t.patch(workspaceUrl(id), { branding }, token);

/** A picture of `width` x `height` pixels in `format`, with some detail so it is not trivially small. */
function image(width: number, height: number, format: 'png' | 'jpeg' | 'webp'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#1f5fbf"/><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#ffcc00"/></svg>`;
  return sharp(Buffer.from(svg))[format]().toBuffer();
}

const putLogo = (body: Buffer | string, type: string, token = owner.token, id = workspaceId) =>
  t.request('PUT', logoUrl(id), { token, raw: body, headers: { 'content-type': type } });

/** The public logo, as bytes. */
async function getLogo(path: string) {
  const res = await t.app.inject({ method: 'GET', url: path });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json: () => res.json() };
}

/** The same-origin path of an absolute logo URL from the API. */
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('branding on the workspace', () => {
  it('starts empty, and admins and owners set it; members read it', async () => {
    const fresh = await t.get(workspaceUrl(), member.token);
    expect(fresh.status).toBe(200);
    expect(fresh.body.branding).toEqual({ displayName: null, accentColor: null, footer: '', logo: null });

    const set = await patchBranding({
      displayName: '  Acme Studio  ',
      accentColor: '#1F5FBF',
      footer: 'Acme · [site](https://acme.example)',
    });
    expect(set.status).toBe(200);
    expect(set.body.branding).toEqual({
      displayName: 'Acme Studio',
      accentColor: '#1f5fbf',
      footer: 'Acme · [site](https://acme.example)',
      logo: null,
    });
    expect((await patchBranding({ footer: 'By the admin' }, admin.token)).status).toBe(200);

    const read = await t.get(workspaceUrl(), member.token);
    expect(read.body.branding).toMatchObject({ displayName: 'Acme Studio', accentColor: '#1f5fbf', footer: 'By the admin' });
    const listed = await t.get('/api/v1/workspaces', member.token);
    expect(listed.body.find((w: { id: string }) => w.id === workspaceId).branding.footer).toBe('By the admin');

    // Fields left out stay; null clears one.
    const cleared = await patchBranding({ accentColor: null });
    expect(cleared.body.branding).toMatchObject({ displayName: 'Acme Studio', accentColor: null, footer: 'By the admin' });
    expect((await patchBranding({ accentColor: '#1f5fbf', footer: '' })).body.branding).toMatchObject({
      accentColor: '#1f5fbf',
      footer: '',
    });
  });

  it.each([
    ['a blank display name', { displayName: '   ' }, '/branding/displayName'],
    ['an empty display name', { displayName: '' }, '/branding/displayName'],
    ['a display name over 100 characters', { displayName: 'x'.repeat(101) }, '/branding/displayName'],
    ['a colour without #', { accentColor: '1f5fbf' }, '/branding/accentColor'],
    ['a short colour', { accentColor: '#15b' }, '/branding/accentColor'],
    ['a colour name', { accentColor: 'navy' }, '/branding/accentColor'],
    ['yellow, 1.07:1 on white', { accentColor: '#ffff00' }, '/branding/accentColor'],
    ['#777777, 4.48:1 on white', { accentColor: '#777777' }, '/branding/accentColor'],
    ['a footer over 500 characters', { footer: 'x'.repeat(501) }, '/branding/footer'],
    ['an unknown field', { tagline: 'x' }, '/branding'],
  ])('refuses %s with a 400 naming the field', async (_case, branding, path) => {
    const problem = expectProblem(await patchBranding(branding), 400);
    expect(problem.errors?.map((e) => e.path).join(' ')).toContain(path);
  });

  it('says how far a colour is from the contrast it needs', async () => {
    const problem = expectProblem(await patchBranding({ accentColor: '#FFFF00' }), 400);
    expect(problem.errors).toEqual([{ path: '/branding/accentColor', message: expect.stringMatching(/1\.07:1 .*4\.5:1/) }]);
  });

  it('takes the limits themselves: 100 and 500 characters, #767676 (4.54:1)', async () => {
    const res = await patchBranding({ displayName: 'n'.repeat(100), footer: 'f'.repeat(500), accentColor: '#767676' });
    expect(res.status).toBe(200);
    expect(res.body.branding.accentColor).toBe('#767676');
  });

  it('is 403 for members, 404 for outsiders, 401 without a token, 403 for a read-only token', async () => {
    expectProblem(await patchBranding({ displayName: 'Mine' }, member.token), 403);
    expectProblem(await patchBranding({ displayName: 'Mine' }, outsider.token), 404);
    expect(expectProblem(await t.get(workspaceUrl(), outsider.token), 404).detail).toBe(
      expectProblem(await t.get(workspaceUrl('no-such-workspace'), outsider.token), 404).detail,
    );
    expectProblem(await t.request('PATCH', workspaceUrl(), { token: null, body: { branding: { displayName: 'x' } } }), 401);
    expectProblem(await patchBranding({ displayName: 'x' }, await readOnlyToken(t, owner)), 403);
  });
});

describe('the logo', () => {
  it.each(['png', 'jpeg', 'webp'] as const)(
    'takes a %s and keeps it as a PNG at most 512 pixels wide, without metadata',
    async (format) => {
      const upload = await sharp(await image(1600, 400, format))
        .withMetadata({ exif: { IFD0: { Copyright: 'secret-exif-text' } } })
        .toBuffer();
      const res = await putLogo(upload, `image/${format}`);
      expect(res.status).toBe(200);
      expect(res.body.logo).toMatchObject({ width: 512, height: 128 });
      expect(res.body.logo.url).toMatch(new RegExp(`/branding/${workspaceId}/logo\\.png\\?v=[0-9a-f]{16}$`));

      const served = await getLogo(pathOf(res.body.logo.url));
      expect(served.status).toBe(200);
      const meta = await sharp(served.bytes).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 512, height: 128 });
      expect(meta.exif).toBeUndefined();
      expect(served.bytes.includes('secret-exif-text')).toBe(false);
      expect((await t.get(workspaceUrl(), member.token)).body.branding.logo).toEqual(res.body.logo);
    },
  );

  it('keeps a small logo at its size, and a tall one within 512 x 512', async () => {
    expect((await putLogo(await image(64, 32, 'png'), 'image/png')).body.logo).toMatchObject({ width: 64, height: 32 });
    expect((await putLogo(await image(300, 1200, 'png'), 'image/png')).body.logo).toMatchObject({ width: 128, height: 512 });
  });

  it('serves it same-origin with nosniff, immutable only under its versioned URL', async () => {
    const { logo } =
      (await putLogo(await image(200, 100, 'png'), 'image/png')).body.branding ?? (await t.get(workspaceUrl(), owner.token)).body.branding;
    const versioned = await getLogo(pathOf(logo.url));
    expect(versioned.headers['content-type']).toBe('image/png');
    expect(versioned.headers['x-content-type-options']).toBe('nosniff');
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const sha = createHash('sha256').update(versioned.bytes).digest('hex');
    expect(logo.url.endsWith(`?v=${sha.slice(0, 16)}`)).toBe(true);

    for (const path of [`/branding/${workspaceId}/logo.png`, `/branding/${workspaceId}/logo.png?v=0000000000000000`]) {
      const other = await getLogo(path);
      expect(other.status).toBe(200);
      expect(other.headers['cache-control']).toBe('no-cache');
      expect(other.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const big = Buffer.concat([await image(100, 100, 'png'), Buffer.alloc(1024 * 1024)]);
    expect(expectProblem(await putLogo(big, 'image/png'), 413).detail).toMatch(/1 MiB/);
  });

  it.each([
    ['image/gif', 'GIF89a'],
    ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['application/json', '{}'],
    ['text/plain', 'hello'],
  ])('refuses %s with 415', async (type, body) => {
    expect(expectProblem(await putLogo(body, type), 415).detail).toMatch(/image\/png, image\/jpeg or image\/webp/);
  });

  it('answers 400, never 500, for bytes that are not the image they claim', async () => {
    expectProblem(await putLogo(Buffer.from('definitely not a picture'), 'image/png'), 400);
    expectProblem(await putLogo(Buffer.alloc(0), 'image/png'), 400);
    const png = await image(300, 300, 'png');
    expectProblem(await putLogo(png.subarray(0, png.length / 2), 'image/png'), 400);
    expectProblem(await putLogo(await image(100, 100, 'jpeg'), 'image/png'), 400);
    const jpeg = await image(400, 400, 'jpeg');
    expectProblem(await putLogo(jpeg.subarray(0, 200), 'image/jpeg'), 400);
  });

  it('refuses an image of more than 16 megapixels before decoding it', async () => {
    // A flat colour compresses to a few kilobytes however many pixels it claims.
    const huge = await sharp({ create: { width: 5000, height: 4000, channels: 3, background: '#ffffff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(huge.length).toBeLessThan(1024 * 1024);
    const problem = expectProblem(await putLogo(huge, 'image/png'), 400);
    expect(problem.detail).toMatch(/5000 x 4000 .*16 megapixels/);
  });

  it('is for admins and owners: 403 for members, 404 for outsiders, 401 anonymous', async () => {
    const png = await image(50, 50, 'png');
    expect((await putLogo(png, 'image/png', admin.token)).status).toBe(200);
    expectProblem(await putLogo(png, 'image/png', member.token), 403);
    expectProblem(await putLogo(png, 'image/png', outsider.token), 404);
    expectProblem(await t.request('PUT', logoUrl(), { token: null, raw: png, headers: { 'content-type': 'image/png' } }), 401);
    expectProblem(await t.del(logoUrl(), member.token), 403);
    expectProblem(await t.del(logoUrl(), outsider.token), 404);
    expectProblem(await t.request('DELETE', logoUrl(), { token: null }), 401);
  });

  it('is removed by DELETE, and its URL then answers 404', async () => {
    const { logo } = (await putLogo(await image(80, 40, 'webp'), 'image/webp')).body;
    expect((await getLogo(pathOf(logo.url))).status).toBe(200);
    expect((await t.del(logoUrl(), owner.token)).status).toBe(204);
    expect((await t.del(logoUrl(), owner.token)).status).toBe(204);
    expect((await t.get(workspaceUrl(), owner.token)).body.branding.logo).toBeNull();
    const gone = await getLogo(pathOf(logo.url));
    expect(gone.status).toBe(404);
    expect(String(gone.headers['content-type'])).toContain('application/problem+json');
    expect((await getLogo(`/branding/no-such-workspace/logo.png`)).status).toBe(404);
  });
});

describe('brandingOf', () => {
  it("gives a workspace's branding with its logo's bytes, and none for an unknown workspace", async () => {
    await patchBranding({ displayName: 'Acme Studio', accentColor: '#1f5fbf', footer: '**Thanks**' });
    const png = await image(120, 60, 'png');
    await putLogo(png, 'image/png');
    const branding = await brandingOf(t.app.chronicle.db, workspaceId);
    expect(branding).toMatchObject({ displayName: 'Acme Studio', accentColor: '#1f5fbf', footerMarkdown: '**Thanks**' });
    expect(branding.logoPng).toBeInstanceOf(Uint8Array);
    expect(await sharp(branding.logoPng!).metadata()).toMatchObject({ format: 'png', width: 120, height: 60 });
    expect(await brandingOf(t.app.chronicle.db, 'no-such-workspace')).toEqual({
      displayName: null,
      accentColor: null,
      footerMarkdown: '',
      logoPng: null,
    });
  });
});

describe('the share page', () => {
  async function sharedReport() {
    const team = await newTeam(t);
    const report = await newReport(t, team.owner, [team.workspace.id], { name: 'Branded report' });
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, team.owner.token);
    expect(share.status).toBe(201);
    return { ...team, report, view: () => t.request('GET', `/share/${share.body.token}`, { token: null }) };
  }

  const cspOf = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
  const styleHashes = (csp: string) => [...csp.matchAll(/'sha256-([A-Za-z0-9+/=]+)'/g)].map((m) => m[1]);
  const inlineStyles = (html: string) => [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);

  it("shows the first workspace's name, logo, accent and footer, with every style allowed by hash", async () => {
    const { owner: o, workspace, view } = await sharedReport();
    const before = await view();
    expect(before.status).toBe(200);
    expect(before.text).toContain('<p class="brand">Chronicle</p>');
    expect(cspOf(before)).toContain("img-src 'self'");

    await patchBranding(
      {
        displayName: 'Acme <Studio>',
        accentColor: '#1f5fbf',
        footer: 'Questions? **Write to us** at [acme.example](https://acme.example).',
      },
      o.token,
      workspace.id,
    );
    const { logo } = (await putLogo(await image(240, 80, 'png'), 'image/png', o.token, workspace.id)).body;
    const page = await view();
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span>Acme &lt;Studio&gt;</span>');
    expect(page.text).toContain(`<img src="${pathOf(logo.url)}" alt="" width="240" height="80">`);
    expect(page.text).toContain('<strong>Write to us</strong>');
    expect(page.text).toContain('href="https://acme.example"');
    expect(page.text).toContain('<title>Branded report – Acme &lt;Studio&gt;</title>');

    const csp = cspOf(page);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("img-src 'self'");
    expect(csp).toContain("default-src 'none'");
    const styles = inlineStyles(page.text);
    expect(styles).toHaveLength(2);
    expect(styles[1]).toBe(accentStylesheet('#1f5fbf'));
    const hashes = styleHashes(csp);
    for (const style of styles) expect(hashes).toContain(createHash('sha256').update(style, 'utf8').digest('base64'));
    expect((await getLogo(pathOf(logo.url))).status).toBe(200);
  });

  it('shows a branding change on the very next view', async () => {
    const { owner: o, workspace, view } = await sharedReport();
    expect((await view()).text).not.toContain('First Name');
    await patchBranding({ displayName: 'First Name', accentColor: '#1f5fbf' }, o.token, workspace.id);
    expect((await view()).text).toContain('First Name');
    expect((await view()).text).toContain('First Name');
    await patchBranding({ displayName: 'Second Name', accentColor: '#000000' }, o.token, workspace.id);
    const page = await view();
    expect(page.text).toContain('Second Name');
    expect(page.text).not.toContain('First Name');
    expect(inlineStyles(page.text)[1]).toBe(accentStylesheet('#000000'));
    expect(styleHashes(cspOf(page))).toContain(createHash('sha256').update(accentStylesheet('#000000'), 'utf8').digest('base64'));

    const { logo } = (await putLogo(await image(100, 50, 'jpeg'), 'image/jpeg', o.token, workspace.id)).body;
    expect((await view()).text).toContain(pathOf(logo.url));
    await t.del(logoUrl(workspace.id), o.token);
    const without = await view();
    expect(without.text).not.toContain('<img');
    await patchBranding({ displayName: null, accentColor: null }, o.token, workspace.id);
    const plain = await view();
    expect(plain.text).toContain('<p class="brand">Chronicle</p>');
    expect(inlineStyles(plain.text)).toHaveLength(1);
    expect(styleHashes(cspOf(plain))).toHaveLength(1);
  });

  it('renders a hostile footer inert', async () => {
    const { owner: o, workspace, view } = await sharedReport();
    const footer = [
      '<script>alert(1)</script>',
      '[click](javascript:alert(2))',
      '<img src=x onerror=alert(3)>',
      '![track](https://tracker.example/pixel.png)',
      '<style>body{display:none}</style>',
    ].join('\n\n');
    expect((await patchBranding({ footer }, o.token, workspace.id)).status).toBe(200);
    const page = await view();
    expect(page.status).toBe(200);
    const html = page.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toContain('tracker.example/pixel.png"');
    expect(inlineStyles(html)).toHaveLength(1);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it("uses the first workspace's branding, not another's", async () => {
    const first = await newTeam(t);
    const second = await newTeam(t);
    const { addMember } = await import('../helpers/factories.js');
    await addMember(t, second.workspace.id, first.owner, 'member', second.owner.token);
    await patchBranding({ displayName: 'Second Workspace' }, second.owner.token, second.workspace.id);
    await patchBranding({ displayName: 'First Workspace' }, first.owner.token, first.workspace.id);
    const report = await newReport(t, first.owner, [first.workspace.id, second.workspace.id]);
    const share = await t.post(`/api/v1/reports/${report.id}/shares`, {}, first.owner.token);
    const page = await t.request('GET', `/share/${share.body.token}`, { token: null });
    expect(page.text).toContain('First Workspace');
    expect(page.text).not.toContain('Second Workspace');
  });
});
