/**
 * An SMTP server on loopback that accepts every message and counts it: where the bench server's
 * mail goes, so sending is real work (composing, SMTP) without a mailbox anywhere.
 */
import { SMTPServer } from 'smtp-server';

export interface SmtpSink {
  url: string;
  accepted(): number;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  let accepted = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, _session, callback) {
      stream.on('data', () => {});
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
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
