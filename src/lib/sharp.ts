/**
 * sharp (libvips), loaded the first time the process makes an image (a logo upload, the site's
 * raster icons): importing it costs a process about 30 MiB before it draws anything, for work a
 * process does rarely or once. Each image is one small pipeline: one libvips thread, and no cache
 * of decoded images or operations kept between them (libvips keeps up to 50 MB and 100 operations
 * otherwise).
 */
type Sharp = (typeof import('sharp'))['default'];

let loaded: Promise<Sharp> | null = null;

export function loadSharp(): Promise<Sharp> {
  loaded ??= import('sharp').then(
    ({ default: sharp }) => {
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    },
    (error: unknown) => {
      // A failed load is tried again by the next image, not remembered.
      loaded = null;
      throw error;
    },
  );
  return loaded;
}
