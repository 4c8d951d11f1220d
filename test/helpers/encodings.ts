/** Compressed answers as a client reads them (src/lib/compression.ts). */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** The body of an answer as sent (`rawPayload`), decoded as its Content-Encoding says. */
export function decoded(res: { headers: Record<string, unknown>; bytes: Buffer }): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.bytes).toString();
  if (encoding === 'gzip') return gunzipSync(res.bytes).toString();
  if (encoding !== undefined) throw new Error(`an encoding Chronicle does not send: ${JSON.stringify(encoding)}`);
  return res.bytes.toString();
}
