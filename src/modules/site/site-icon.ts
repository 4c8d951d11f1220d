/**
 * Chronicle's icon, the one a browser shows beside every page of the origin (the web app, the API
 * reference, share and mail pages): a clock in the shape of a C, white on the web app's accent
 * (web/src/styles.css `--accent`). One drawing, given as SVG and drawn by sharp into the PNGs of the
 * formats that need pixels.
 */
import { loadSharp } from '../../lib/sharp.js';

const ACCENT = '#1f5fbf';

/** The drawing on a 64-unit square; `corner` rounds the background (0 for a touch icon, which iOS rounds itself). */
function drawing(corner: number): string {
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
    `<rect width="64" height="64" rx="${corner}" fill="${ACCENT}"/>` +
    '<path d="M46.1 22.5A17 17 0 1 0 46.1 41.5" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/>' +
    '<path d="M32 24v8.5l6 3.5" fill="none" stroke="#fff" stroke-width="4.5" stroke-linecap="round" stroke-linejoin="round"/>' +
    '</svg>'
  );
}

/** The icon as SVG, for browsers that take one (`<link rel="icon" type="image/svg+xml">`). */
export const ICON_SVG = Buffer.from(drawing(14));

/**
 * The drawing as a square PNG of `size` pixels, drawn at that size rather than scaled from another;
 * `opaque` drops the alpha channel.
 */
async function png(svg: string, size: number, opaque = false): Promise<Buffer> {
  const sharp = await loadSharp();
  const image = sharp(Buffer.from(svg), { density: (72 * size) / 64 }).resize(size, size);
  return (opaque ? image.removeAlpha() : image).png().toBuffer();
}

/**
 * An ICO file holding `images` (square PNGs of the given sizes, up to 256): the container browsers
 * ask `/favicon.ico` for. Since Windows Vista an ICO entry may be a whole PNG file, which every
 * current browser reads: a 6-byte header, a 16-byte entry per image, then the images.
 */
export function icoOf(images: readonly { size: number; png: Buffer }[]): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // 1: an icon (2 would be a cursor)
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png: data }, i) => {
    if (!Number.isInteger(size) || size < 1 || size > 256) throw new RangeError(`an ICO image is 1-256 pixels, not ${size}`);
    const entry = 6 + 16 * i;
    header.writeUInt8(size === 256 ? 0 : size, entry); // width; 0 means 256
    header.writeUInt8(size === 256 ? 0 : size, entry + 1); // height
    header.writeUInt8(0, entry + 2); // no palette
    header.writeUInt8(0, entry + 3); // reserved
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(data.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

export interface RasterIcons {
  /** `/favicon.ico`: 16, 32 and 48 pixels. */
  ico: Buffer;
  /** `/apple-touch-icon.png`: 180 pixels, square corners, no transparency. */
  touch: Buffer;
  /** The web app's manifest icons: 192 and 512 pixels as drawn, and 512 to be masked (square, opaque). */
  app192: Buffer;
  app512: Buffer;
  maskable512: Buffer;
}

/** The icons that need pixels, drawn on libvips' threads (25-45 ms, once per process; sharp loads with them). */
export async function drawRasterIcons(): Promise<RasterIcons> {
  const rounded = drawing(14);
  // Square and opaque where the platform shapes the icon itself (iOS; Android's masks, whose safe
  // zone, the middle 80%, holds the whole clock).
  const square = drawing(0);
  const sizes = [16, 32, 48];
  const [images, touch, app192, app512, maskable512] = await Promise.all([
    Promise.all(sizes.map(async (size) => ({ size, png: await png(rounded, size) }))),
    png(square, 180, true),
    png(rounded, 192),
    png(rounded, 512),
    png(square, 512, true),
  ]);
  return { ico: icoOf(images), touch, app192, app512, maskable512 };
}
