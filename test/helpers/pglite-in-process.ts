/**
 * The protocol client (src/db/pglite-client.ts) in the thread that owns the engine, wired to
 * Drizzle as the engine's thread would be: what test/slow/pglite-client.test.ts holds the runner
 * to without a second thread in between (the server itself runs src/db/pglite-thread.ts).
 */
import type { PGlite } from '@electric-sql/pglite';
import {
  protocolRunner,
  rawTypesOf,
  readResults,
  serializeParams,
  shapeResults,
  type DrizzlePgliteClient,
} from '../../src/db/pglite-client.js';

type QueryOptions = Parameters<DrizzlePgliteClient['query']>[2];
type TransactionClient = Parameters<Parameters<DrizzlePgliteClient['transaction']>[0]>[0];

export function inProcessClient(pg: PGlite): DrizzlePgliteClient {
  const runner = protocolRunner(pg);
  const run = async <T>(text: string, params: unknown[], options: QueryOptions) =>
    shapeResults<T>(readResults(await runner.run(text, serializeParams(params)), rawTypesOf(options), pg.parsers), options);

  return {
    async query<T>(text: string, params: unknown[] = [], options?: QueryOptions) {
      // As PGlite's own query: wait for any transaction, then run alone, then sync the files.
      return pg._runExclusiveTransaction(async () => {
        const result = await pg._runExclusiveQuery(() => run<T>(text, params, options));
        await pg.syncToFs();
        return result;
      });
    },
    transaction<T>(work: (tx: TransactionClient) => Promise<T>) {
      return pg.transaction((tx) =>
        work({
          query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
            if (tx.closed) throw new Error('Transaction is closed');
            return pg._runExclusiveQuery(() => run<R>(text, params, options));
          },
        }),
      );
    },
  };
}
