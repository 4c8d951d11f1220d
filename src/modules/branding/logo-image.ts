/**
 * A workspace logo as the server keeps it (docs/api.md "Branding", docs/security.md "Images"): the
 * upload is decoded by sharp (libvips, on libuv's thread pool, never on the event loop) only after
 * its header says it is a PNG, JPEG or WebP of at most LOGO_MAX_INPUT_PIXELS, and re-encoded as a
 * PNG that fits LOGO_MAX_SIZE pixels, turned upright, without any metadata (EXIF, ICC, text). What
 * is served is never the uploaded file itself, only pixels the server wrote.
 */
import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import { badRequest } from '../../lib/errors.js';
import { loadSharp } from '../../lib/sharp.js';

/** The largest upload, in bytes: 1 MiB, the API's body limit. */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** The most pixels an upload may have (width x height): a 1 MiB file can claim far more than it holds. */
export const LOGO_MAX_INPUT_PIXELS = 16_000_000;
/** The stored logo fits this many pixels both ways, keeping its aspect ratio. */
export const LOGO_MAX_SIZE = 512;

/** The upload types, by Content-Type, and the format sharp must find in the bytes. */
export const LOGO_TYPES = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;
export type LogoType = keyof typeof LOGO_TYPES;

export interface EncodedLogo {
  png: Buffer;
  width: number;
  height: number;
  /** Hex sha256 of `png`: the version in the logo's URL. */
  sha256: string;
}

const unreadable = () =>
  badRequest('The body is not a PNG, JPEG or WebP image that can be read.', [{ path: '', message: 'is not a readable image' }]);

/** The upload, checked and re-encoded; 400 for anything but a readable image of the declared type within the limits. */
export async function encodeLogo(input: Buffer, type: LogoType): Promise<EncodedLogo> {
  const sharp = await loadSharp();
  const options = { limitInputPixels: LOGO_MAX_INPUT_PIXELS, autoOrient: true } as const;
  let header: Metadata;
  try {
    // Reads the header only: the image is not decoded yet, so its claimed size can be judged here.
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  const expected = LOGO_TYPES[type];
  if (header.format !== expected) {
    throw badRequest(`The body is not the ${expected.toUpperCase()} image its Content-Type (${type}) says.`, [
      { path: '', message: `is not ${type}` },
    ]);
  }
  const { width, height } = header;
  if (!width || !height || width * height > LOGO_MAX_INPUT_PIXELS) {
    throw badRequest(`The image is ${width} x ${height} pixels; a logo may have at most ${LOGO_MAX_INPUT_PIXELS / 1_000_000} megapixels.`, [
      { path: '', message: 'has too many pixels' },
    ]);
  }
  try {
    const { data, info } = await sharp(input, options)
      .resize({ width: LOGO_MAX_SIZE, height: LOGO_MAX_SIZE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height, sha256: createHash('sha256').update(data).digest('hex') };
  } catch {
    // A header that promised an image whose data is broken or truncated.
    throw unreadable();
  }
}
