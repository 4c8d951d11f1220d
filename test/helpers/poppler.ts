/** Reading PDFs back with poppler (pdftotext, pdfinfo), which .ci/run installs. */
import { execFile as execFileCb } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCb);

/** The PDF's text (`pdftotext -layout`) and its `pdfinfo` fields. */
export async function readPdf(bytes: Uint8Array): Promise<{ text: string; pages: number; pageSize: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chronicle-pdf-'));
  try {
    const file = path.join(dir, 'file.pdf');
    await writeFile(file, bytes);
    const [{ stdout: text }, { stdout: info }] = await Promise.all([
      execFile('pdftotext', ['-layout', file, '-'], { maxBuffer: 64 * 1024 * 1024 }),
      execFile('pdfinfo', [file]),
    ]);
    return {
      text,
      pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]),
      pageSize: /^Page size:\s+(.*)$/m.exec(info)?.[1] ?? '',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
