/**
 * Progress on stderr: a live bar (cli-progress) on a terminal, one plain line per step otherwise,
 * so logs and pipes stay readable.
 */
import { SingleBar } from 'cli-progress';

export interface Progress {
  update(done: number): void;
  stop(): void;
}

export function createProgress(total: number, io: { err(line: string): void; interactive: boolean }, unit = 'entries'): Progress {
  if (!io.interactive) {
    return {
      update: (done) => {
        io.err(`${unit}: ${done}/${total} (${total === 0 ? 100 : Math.floor((done / total) * 100)}%)`);
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar({
    stream: process.stderr,
    format: `{bar} {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
    hideCursor: true,
    clearOnComplete: false,
  });
  bar.start(total, 0);
  let stopped = false;
  return {
    update: (done) => {
      bar.update(done);
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}
