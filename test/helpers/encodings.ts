/** Compressed answers as a client reads them (src/lib/compression.ts). */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** The body of an answer as sent (`rawPayload`), decoded as its Content-Encoding says, as bytes. */
export function decodedBytes(res: { headers: Record<string, unknown>; bytes: Buffer }): Buffer {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(res.bytes);
  if (encoding === 'gzip') return gunzipSync(res.bytes);
  if (encoding !== undefined) throw new Error(`an encoding Chronicle does not send: ${JSON.stringify(encoding)}`);
  return res.bytes;
}

/** The body of an answer as sent (`rawPayload`), decoded as its Content-Encoding says, as text. */
export function decoded(res: { headers: Record<string, unknown>; bytes: Buffer }): string {
  return decodedBytes(res).toString();
}
