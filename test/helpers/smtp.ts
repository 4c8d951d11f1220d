/**
 * A real SMTP server on loopback for the mail tests (smtp-server, from the Nodemailer project):
 * it accepts what Chronicle sends and keeps each message parsed (mailparser), or refuses with
 * the replies a test queues (a 451 while it is "busy", a 550 for a dead mailbox).
 */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  /** The envelope's recipient. */
  to: string;
  raw: string;
  parsed: ParsedMail;
}

export interface TestSmtp {
  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** The next `times` messages are refused with `code` (e.g. 451 or 550). */
  refuse(code: number, times: number): void;
  /** Messages offered while refusing (each attempt counts). */
  refusedCount(): number;
  /** Forgets what was received and the refusals still queued. */
  reset(): void;
  /**
   * Holds the `n`th message to arrive from now (1 = the next; counting only those to addresses
   * matching `to`, when given) before answering it: `reached`
   * resolves when its data is in; after `release()` it is refused (421) and not kept, as a message
   * whose sender died before the server's answer was never delivered.
   */
  hold(n: number, to?: RegExp): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refusals: number[] = [];
  let refused = 0;
  let held: { at: number; to: RegExp | undefined; counted: number; reached: () => void; released: Promise<void> } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (held && (!held.to || session.envelope.rcptTo.some((r) => held?.to?.test(r.address)))) held.counted++;
        if (held && held.counted === held.at) {
          const { reached, released } = held;
          held = null;
          reached();
          void released.then(() => {
            callback(Object.assign(new Error('Service closing'), { responseCode: 421 }));
          });
          return;
        }
        const code = refusals.shift();
        if (code !== undefined) {
          refused++;
          const error = Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code });
          callback(error);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, raw, parsed });
            callback();
          })
          .catch((error: unknown) => {
            callback(error as Error);
          });
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
  if (!address || typeof address === 'string') throw new Error('the SMTP server has no port');
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    received,
    refuse(code, times) {
      for (let i = 0; i < times; i++) refusals.push(code);
    },
    refusedCount: () => refused,
    reset() {
      received.length = 0;
      refusals.length = 0;
      refused = 0;
    },
    hold(n, to) {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      held = { at: n, to, counted: 0, reached, released };
      return { reached: reachedPromise, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}
