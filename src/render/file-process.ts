/**
 * A file process (file-pool.ts): makes the PDF, CSV or XLSX of a version, one at a time, at the
 * render workers' lower priority, and answers with its bytes. Started with V8 on one thread (`--single-threaded`),
 * so its garbage collection and compilation run here too, at this priority.
 */
import { getHeapStatistics } from 'node:v8';
import { decodeDataset } from '../modules/exports/dataset.js';
import type { FileJob, FileProcessSettings, FileReply, FileRequest } from './file-pool.js';
import { FILE_NICE, lowerThreadPriority } from '../lib/thread-priority.js';

// First: the threads this one starts from now on (libuv's, for instance) take its priority.
lowerThreadPriority(FILE_NICE);

const settings = JSON.parse(process.argv[2] ?? '{}') as Partial<FileProcessSettings>;
const pdfFallbackFonts = settings.pdfFallbackFonts ?? [];

/**
 * Answers the server. A server that went away while the file was being made (a layout runs to its
 * end without looking at the channel) is the end of this process, not an error.
 */
function send(reply: FileReply): void {
  if (!process.send) throw new Error('file-process runs only as a child process with an IPC channel');
  process.send(reply, (error: Error | null) => {
    if (error) process.exit(0);
  });
}

/** Each writer loads with its first file: most processes only ever make one kind. */
async function make(job: FileJob): Promise<Uint8Array> {
  if (job.format === 'pdf') {
    const [{ renderPdf }, { chartSvgForPrint }] = await Promise.all([
      import('./pdf/render-pdf.js'),
      import('../../packages/document/src/index.js'),
    ]);
    return renderPdf({ ...job.pdf, chartSvg: chartSvgForPrint, fallbackFonts: pdfFallbackFonts });
  }
  const dataset = decodeDataset(job.data);
  if (job.format === 'csv') return (await import('../modules/exports/csv.js')).datasetCsv(dataset);
  const { datasetXlsx } = await import('../modules/exports/xlsx.js');
  return datasetXlsx(dataset, { title: job.title, createdAt: new Date(job.createdAt) });
}

async function handle({ id, job }: FileRequest): Promise<void> {
  let reply: FileReply;
  try {
    reply = { id, heapBytes: 0, binary: await make(job) };
  } catch (error) {
    const tooLarge = error instanceof Error && error.name === 'PdfTooLargeError';
    reply = {
      id,
      heapBytes: 0,
      error: tooLarge ? { message: error.message, kind: 'limit' } : { message: 'the file could not be made', kind: 'runtime' },
    };
  }
  reply.heapBytes = getHeapStatistics().used_heap_size;
  send(reply);
}

process.on('message', (message: FileRequest) => {
  void handle(message);
});
// The server went away: so does this process (once the file it is making, if any, is done).
process.on('disconnect', () => process.exit(0));
