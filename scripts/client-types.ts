/**
 * `npm run client:generate`: writes Chronicle's OpenAPI document to packages/client/openapi.json
 * and the client's types generated from it (openapi-typescript) to packages/client/src/schema.ts.
 * `--check` writes nothing and fails when either file differs from what the routes give now, so
 * a route changed without regenerating the client fails `npm run check`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { ensurePgliteImages } from './pglite-images.js';

const DOCUMENT = fileURLToPath(new URL('../packages/client/openapi.json', import.meta.url));
const TYPES = fileURLToPath(new URL('../packages/client/src/schema.ts', import.meta.url));
const HEADER = '// Generated from openapi.json by `npm run client:generate` (openapi-typescript). Do not edit.\n\n';

async function currentDocument(): Promise<string> {
  // The document depends on the configuration only through `servers`: a neutral one keeps the
  // generated files the same on every machine.
  const config = loadConfig({ PUBLIC_BASE_URL: 'http://localhost:3000', LOG_LEVEL: 'silent' });
  // The app needs a migrated database to start: an in-memory one from the migrated image, about
  // one second where initialising one takes five (the image is the tests' too, made once).
  const database = await openDatabase({ databaseUrl: null, dataDir: null, image: readFileSync((await ensurePgliteImages()).migrated) });
  try {
    const app = await buildApp({ config: { ...config, dataDir: null, shareKey: Buffer.alloc(32) }, logger: false, database });
    try {
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
};

const document = await currentDocument();
// Chronicle's defaults are what the server assumes when a request leaves a field out: a named
// request body (components.schemas.SendBody) keeps such fields optional for the caller.
const types = HEADER + astToString(await openapiTS(JSON.parse(document) as Parameters<typeof openapiTS>[0], { defaultNonNullable: false }));

if (process.argv.includes('--check')) {
  const stale = [
    [DOCUMENT, document],
    [TYPES, types],
  ].filter(([path, text]) => read(path as string) !== text);
  if (stale.length > 0) {
    process.stderr.write(
      `The client's generated files are stale: ${stale.map(([path]) => path).join(', ')}\nRun: npm run client:generate\n`,
    );
    process.exit(1);
  }
  process.stdout.write('client types are up to date\n');
} else {
  writeFileSync(DOCUMENT, document);
  writeFileSync(TYPES, types);
  process.stdout.write(`wrote ${DOCUMENT} and ${TYPES}\n`);
}
