/**
 * An SMTP server on loopback that accepts every message and counts it: where the bench server's
 * mail goes, so sending is real work (composing, SMTP) without a mailbox anywhere.
 */
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  accepted(): number;
  /** The bytes of every message accepted so far. */
  acceptedBytes(): number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let accepted = 0;
  let acceptedBytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, _session, callback) {
      stream.on('data', (chunk: Buffer) => {
        acceptedBytes += chunk.length;
      });
      stream.on('end', () => {
        accepted += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('the SMTP sink has no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    accepted: () => accepted,
    acceptedBytes: () => acceptedBytes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/**
 * The baseline of the mail rows: `count` messages of about `bytes` bytes each sent straight
 * through Nodemailer's pool (two connections, as Chronicle's) to the SMTP server at `url`, all
 * handed to the pool at once; resolves with the milliseconds until the last is accepted.
 */
export async function bareMail(url: string, count: number, bytes: number): Promise<number> {
  const { createTransport } = await import('nodemailer');
  const transport = createTransport({ pool: true, maxConnections: 2, url });
  const line = `${'x'.repeat(76)}\n`;
  const text = line.repeat(Math.max(1, Math.round(bytes / line.length)));
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        transport.sendMail({ from: 'bench@chronicle.example', to: `reader-${i}@chronicle.example`, subject: `Bench ${i}`, text }),
      ),
    );
    return performance.now() - started;
  } finally {
    transport.close();
  }
}
