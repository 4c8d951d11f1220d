/**
 * The thread that owns the embedded engine (src/db/pglite-thread.ts starts it): it opens PGlite
 * on the data directory it is given and runs what the server's thread asks, one request at a
 * time and in the order asked, so HTTP, JSON and rendering on the server's thread overlap with
 * query execution here.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { answersWithError, ARRAY_TYPES_SQL, protocolRunner } from './pglite-client.js';
import { PGLITE_SETTINGS } from './pglite-setup.js';
import type { EngineError, EngineReply, EngineRequest } from './pglite-thread.js';

if (!parentPort) throw new Error('pglite-worker.ts runs as a worker thread');
const port = parentPort;
const { dataDir, image } = workerData as { dataDir: string | null; image: Uint8Array | null };

/**
 * While requests' statements wait, background work gets at most this share of the engine's
 * time: after a background statement that took d ms, requests' statements have the engine for
 * the next d × (1 / share - 1) ms before another background statement may run.
 */
const BACKGROUND_SHARE = 0.1;

/** A failure as plain data: its message, its class's name, and the fields PostgreSQL reports (code, constraint, ...). */
function describe(error: unknown): EngineError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number | boolean | null> = {};
  for (const [key, value] of Object.entries(error) as [string, unknown][]) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

async function main(): Promise<void> {
  let pg: PGlite;
  try {
    const options = { postgresqlconf: PGLITE_SETTINGS };
    if (dataDir) pg = await PGlite.create(dataDir, options);
    else pg = await PGlite.create(image ? { ...options, loadDataDir: new Blob([image]) } : options);
  } catch (error) {
    port.postMessage({ id: 0, error: describe(error) } satisfies EngineReply);
    return;
  }
  const runner = protocolRunner(pg);

  async function answer(request: EngineRequest): Promise<unknown> {
    switch (request.op) {
      case 'run':
        return runner.run(request.text, request.params);
      case 'query': {
        const { rows, fields, affectedRows } = await pg.query(request.text, request.values);
        return { rows, fields, affectedRows };
      }
      case 'script': {
        // One call for a multi-statement script; the answer is the last statement's.
        const results = await pg.exec(request.text);
        return { rows: results.at(-1)?.rows ?? [] };
      }
      case 'migrate': {
        const { drizzle } = await import('drizzle-orm/pglite');
        const { migrate } = await import('drizzle-orm/pglite/migrator');
        await migrate(drizzle(pg), { migrationsFolder: request.folder });
        return null;
      }
      case 'close':
        await pg.close();
        return null;
    }
  }

  // Requests' statements first, in the order asked; background work's after them, but never
  // shut out: it gets BACKGROUND_SHARE of the engine's time while requests' statements wait.
  // Once a transaction has begun, only its own statements run until it ends.
  const foreground: EngineRequest[] = [];
  const background: EngineRequest[] = [];
  let open: number | null = null;
  /** Until when requests' statements go first even though background work waits (performance.now()). */
  let requestsFirstUntil = 0;
  let pumping = false;

  const enqueue = (request: EngineRequest) => (request.background ? background : foreground).push(request);

  function next(): EngineRequest | undefined {
    // Whatever has arrived meanwhile is queued before choosing: a statement completes without
    // giving the event loop a turn, so arrivals would otherwise be seen one at a time.
    for (let arrived = receiveMessageOnPort(port); arrived; arrived = receiveMessageOnPort(port)) {
      enqueue(arrived.message as EngineRequest);
    }
    if (open !== null) {
      for (const queue of [foreground, background]) {
        const at = queue.findIndex((request) => request.tx === open);
        if (at >= 0) return queue.splice(at, 1)[0];
      }
      return undefined;
    }
    if (foreground.length > 0 && (background.length === 0 || performance.now() < requestsFirstUntil)) return foreground.shift();
    return background.shift() ?? foreground.shift();
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    for (let request = next(); request; request = next()) {
      let reply: EngineReply;
      const started = performance.now();
      try {
        const result = await answer(request);
        reply = { id: request.id, result };
        // A transaction holds the engine once its BEGIN succeeded (the server's thread reads the answer).
        if (request.begins && !(result instanceof Uint8Array && answersWithError(result))) open = request.tx ?? null;
      } catch (error) {
        reply = { id: request.id, error: describe(error) };
      }
      if (request.ends) open = null;
      if (request.background) {
        const finished = performance.now();
        requestsFirstUntil = finished + (finished - started) * (1 / BACKGROUND_SHARE - 1);
      }
      try {
        // A statement's answer is its bytes, handed over rather than copied.
        port.postMessage(reply, reply.result instanceof Uint8Array ? [reply.result.buffer as ArrayBuffer] : []);
      } catch (error) {
        // A value the structured clone cannot copy: the caller hears why instead of waiting forever.
        port.postMessage({ id: request.id, error: describe(error) } satisfies EngineReply);
      }
      if (request.op === 'close') {
        port.close();
        return;
      }
    }
    pumping = false;
  }

  port.on('message', (request: EngineRequest) => {
    enqueue(request);
    void pump();
  });
  // The array types PGlite parses, for the server's thread to parse rows as PGlite would.
  const { rows } = await pg.query<{ element: number; array: number }>(ARRAY_TYPES_SQL);
  port.postMessage({ id: 0, result: rows.map(({ element, array }) => [element, array]) } satisfies EngineReply);
}

await main();
