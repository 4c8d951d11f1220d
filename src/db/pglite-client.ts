/**
 * The embedded engine's protocol client: each query in one call into the engine, with a named
 * prepared statement per SQL text. `protocolRunner` runs in the engine's thread
 * (pglite-worker.ts); `serializeParams`, `rawTypesOf` and `shapeResults` are the halves of a
 * query on the server's thread (pglite-thread.ts, which gives Drizzle its client).
 *
 * PGlite's own `query` makes six calls into WebAssembly per statement (Parse, Describe, Bind,
 * Describe, Execute, Sync, each waiting for the last) and plans the statement every time: about
 * 0.4-0.7 ms for a primary-key lookup. Here a statement is parsed and planned once under a name,
 * and each query sends Bind, Describe, Execute and Sync together. Parameters go as text with
 * their types left for the server to infer (as any driver does for `unknown`); rows are read from
 * the answer's bytes and parsed by PGlite's own type parsers, so they look exactly as they would
 * through `query`. The engine's thread hands over the answer's bytes (transferred, not copied) and
 * the server's thread reads the rows (`readResults`): the engine's thread, which every query of the
 * process waits for, does only the engine's work.
 *
 * Statement names (`chronicle_1`, ...) are the runner's own: one runner per PGlite. A statement
 * whose result columns change under it (DDL) fails with 0A000 until it is evicted; Chronicle
 * changes its schema only by migrations, at start-up, through PGlite's own API.
 */
import { protocol, types, type PGlite, type Results } from '@electric-sql/pglite';

type QueryOptions = Parameters<PGlite['query']>[2];
type Transaction = Parameters<Parameters<PGlite['transaction']>[0]>[0];

export interface DrizzlePgliteClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(work: (tx: Pick<Transaction, 'query'>) => Promise<T>): Promise<T>;
}

/** Named statements kept; the least recently used beyond this is closed. */
const MAX_STATEMENTS = 500;

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** A PostgreSQL array literal: `{"a","b\"c",NULL}`, nested arrays as nested braces. */
function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((value) => {
    if (value === null || value === undefined) return 'NULL';
    if (Array.isArray(value)) return arrayLiteral(value);
    return `"${textOf(value).replace(/[\\"]/g, '\\$&')}"`;
  });
  return `{${items.join(',')}}`;
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  // As node-postgres spells them: valid wherever the server infers boolean, text or jsonb.
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString('hex')}`;
  if (Array.isArray(value)) return arrayLiteral(value);
  return JSON.stringify(value);
}

/** A parameter in text form; null stays SQL NULL. */
function serializeParam(value: unknown): string | null {
  return value === null || value === undefined ? null : textOf(value);
}

/** Describe the portal, Execute it, Sync: the same after every Bind. */
const DESCRIBE_EXECUTE_SYNC = Buffer.from(concat([serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]));

/**
 * Bind (unnamed portal, every parameter and result in text form) followed by Describe, Execute
 * and Sync, in one buffer. Written here rather than by PGlite's serializer, which measures and
 * encodes each string in a JavaScript loop: for a batch of entries (one parameter of a few hundred
 * kilobytes) that was a tenth of the request.
 */
export function bindAndExecute(statement: string, values: readonly (string | null)[]): Uint8Array {
  const lengths = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)));
  const bindLength = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + lengths.reduce((sum, n) => sum + 4 + Math.max(n, 0), 0) + 2;
  const out = Buffer.allocUnsafe(1 + bindLength + DESCRIBE_EXECUTE_SYNC.length);
  let at = out.writeUInt8(0x42, 0); // 'B'
  at = out.writeInt32BE(bindLength, at);
  at = out.writeUInt8(0, at); // unnamed portal
  at += out.write(statement, at);
  at = out.writeUInt8(0, at);
  at = out.writeInt16BE(0, at); // every parameter in text form
  at = out.writeUInt16BE(values.length, at); // up to 65,535, as the server reads it
  values.forEach((value, i) => {
    at = out.writeInt32BE(lengths[i] ?? -1, at);
    if (value !== null) at += out.write(value, at);
  });
  at = out.writeInt16BE(0, at); // every result column in text form
  DESCRIBE_EXECUTE_SYNC.copy(out, at);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/** A column of a result: its name and type, as PGlite's own `query` describes it. */
export interface ResultField {
  name: string;
  dataTypeID: number;
}

/**
 * One statement's answer read from its bytes (`readResults`): rows as arrays of values parsed by
 * PGlite's parsers, except the columns whose type is among the caller's `rawTypes`, which stay
 * text (or null) for the caller's own parsers (see `shapeResults`).
 */
export interface RawResults {
  fields: ResultField[];
  rows: unknown[][];
  affectedRows: number;
  /** The command tag's first word (`SELECT`, `COMMIT`, a `ROLLBACK` answering a COMMIT, ...). */
  command: string;
}

/** Parameters in the text form `run` takes; null stays SQL NULL. */
export function serializeParams(params: readonly unknown[]): (string | null)[] {
  return params.map(serializeParam);
}

/** The types a query's options parse itself (Drizzle keeps timestamps and dates as text). */
export function rawTypesOf(options: QueryOptions): number[] {
  return options?.parsers ? Object.keys(options.parsers).map(Number) : [];
}

/** Type parsers by type OID, as a PGlite instance keeps them (its `parsers`). */
export type TypeParsers = Record<number, types.Parser>;

/**
 * The array types PGlite makes parsers for when it opens (each element type with its array
 * type), by the query PGlite itself runs; `typeParsers` rebuilds the same parsers elsewhere.
 */
export const ARRAY_TYPES_SQL = `select b.oid as element, b.typarray as array from pg_catalog.pg_type a
  left join pg_catalog.pg_type b on b.oid = a.typelem where a.typcategory = 'A' group by b.oid, b.typarray order by b.oid`;

/** PGlite's default parsers and one for each of `arrayTypes` (pairs of element and array type OIDs), as an instance has them. */
export function typeParsers(arrayTypes: readonly (readonly [number, number])[]): TypeParsers {
  const parsers: TypeParsers = { ...types.parsers };
  for (const [element, array] of arrayTypes) {
    parsers[array] = (text): unknown => types.arrayParser(text, parsers[element] as types.Parser, array) as unknown;
  }
  return parsers;
}

/**
 * Runs statements on `pg` by name, parsing (and planning) each SQL text once. Callers run one
 * statement at a time (the engine has one connection). An answer is the engine's bytes, in an
 * ArrayBuffer of their own, for `readResults`.
 */
export function protocolRunner(pg: PGlite): {
  run(text: string, params: readonly (string | null)[]): Promise<Uint8Array>;
} {
  /** SQL text -> statement name, least recently used first. */
  const statements = new Map<string, string>();
  const closing: string[] = [];
  let nextName = 1;

  /** The statement's name, parsing (and planning) it on first use. */
  async function statementFor(text: string): Promise<string> {
    const known = statements.get(text);
    if (known !== undefined) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `chronicle_${nextName++}`;
    const close = closing.splice(0).map((old) => serialize.close({ type: 'S', name: old }));
    // Parsed on its own: a statement that fails to parse must never be remembered.
    const { messages } = await pg.execProtocol(concat([...close, serialize.parse({ name, text, types: [] }), serialize.sync()]), {
      syncToFs: false,
    });
    // PGlite 0.5 answers some failures with neither ParseComplete nor an error (an expression
    // nested a few hundred levels deep): the statement does not exist.
    if (!messages.some((message) => message.name === 'parseComplete')) {
      throw new Error('PGlite did not prepare the statement and gave no reason');
    }
    statements.set(text, name);
    if (statements.size > MAX_STATEMENTS) {
      const [oldestText, oldestName] = statements.entries().next().value as [string, string];
      statements.delete(oldestText);
      closing.push(oldestName);
    }
    return name;
  }

  /**
   * The engine's answer to one exchange, as raw bytes copied out of the engine's memory into a
   * buffer of their own (never a slice of Node's shared pool, so it can be transferred): PGlite's
   * own `execProtocol` parses every message into objects (a copy of each field's bytes, then a
   * string) before the rows are built; reading the rows straight from the bytes halves a small
   * read's time.
   */
  async function exchange(message: Uint8Array): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    await pg.execProtocolRawStream(message, {
      syncToFs: false,
      onRawData: (chunk) => {
        chunks.push(new Uint8Array(chunk));
        length += chunk.length;
      },
    });
    if (chunks.length === 1) return chunks[0] as Uint8Array;
    const answer = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      answer.set(chunk, at);
      at += chunk.length;
    }
    return answer;
  }

  return {
    async run(text, params) {
      const statement = await statementFor(text);
      return exchange(bindAndExecute(statement, params));
    },
  };
}

/**
 * Rows as PGlite's own parser and `query` make them, read from the backend messages: a
 * RowDescription's columns, each DataRow's values (text, parsed by `parsers` unless the caller
 * parses the type itself), and each CommandComplete's tag. A failure is left to PGlite's parser,
 * so the error is PGlite's own DatabaseError, with every field PostgreSQL sent.
 */
export function readResults(answer: Uint8Array, rawTypes: readonly number[], parsers: TypeParsers): RawResults {
  const data = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
  const rows: unknown[][] = [];
  let fields: ResultField[] = [];
  let columnParsers: (types.Parser | undefined)[] = [];
  let affectedRows = 0;
  let command = '';
  for (let at = 0; at < data.length;) {
    const kind = data[at];
    const end = at + 1 + data.readInt32BE(at + 1);
    let cursor = at + 5;
    if (kind === 0x45 /* E: ErrorResponse */) throw databaseError(data);
    if (kind === 0x54 /* T: RowDescription */) {
      const count = data.readInt16BE(cursor);
      cursor += 2;
      fields = [];
      for (let i = 0; i < count; i++) {
        const nul = data.indexOf(0, cursor);
        const name = data.toString('utf8', cursor, nul);
        cursor = nul + 1 + 4 + 2; // table oid, column number
        fields.push({ name, dataTypeID: data.readInt32BE(cursor) });
        cursor += 4 + 2 + 4 + 2; // type oid, type size, type modifier, format
      }
      columnParsers = fields.map(({ dataTypeID: type }) => (rawTypes.includes(type) ? undefined : parsers[type]));
    } else if (kind === 0x44 /* D: DataRow */) {
      const count = data.readInt16BE(cursor);
      cursor += 2;
      const row: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const length = data.readInt32BE(cursor);
        cursor += 4;
        if (length < 0) {
          row[i] = null;
          continue;
        }
        const text = data.toString('utf8', cursor, cursor + length);
        cursor += length;
        const parser = columnParsers[i];
        row[i] = parser ? parser(text, fields[i]?.dataTypeID ?? 0) : text;
      }
      rows.push(row);
    } else if (kind === 0x43 /* C: CommandComplete */) {
      const words = data.toString('utf8', cursor, end - 1).split(' ');
      command = words[0] ?? '';
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command)) affectedRows += Number(words[words.length - 1]) || 0;
    }
    at = end;
  }
  return { fields, rows, affectedRows, command };
}

/** Whether an answer holds an ErrorResponse: its messages' kinds, read without reading the messages. */
export function answersWithError(answer: Uint8Array): boolean {
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  for (let at = 0; at + 5 <= answer.byteLength; at += 1 + view.getInt32(at + 1)) {
    if (answer[at] === 0x45 /* E: ErrorResponse */) return true;
  }
  return false;
}

/** The DatabaseError PGlite's own parser makes of the answer's ErrorResponse. */
function databaseError(data: Buffer): Error {
  let error: Error | undefined;
  new protocol.Parser().parse(data, (message) => {
    if (message instanceof Error) error ??= message;
  });
  return error ?? new Error('The embedded database reported an error it did not describe');
}

/**
 * The rows Drizzle expects from raw results: the caller's parsers applied to the columns left as
 * text for them (never to NULL), as objects unless the caller asked for arrays.
 */
export function shapeResults<T>(raw: RawResults, options: QueryOptions): Results<T> {
  const overrides = options?.parsers;
  const { fields } = raw;
  if (overrides) {
    const own = fields.map(({ dataTypeID: type }) => overrides[type] as ((text: string, type: number) => unknown) | undefined);
    if (own.some(Boolean)) {
      for (const row of raw.rows) {
        own.forEach((parser, i) => {
          const value = row[i];
          if (parser && value !== null) row[i] = parser(value as string, fields[i]?.dataTypeID ?? 0);
        });
      }
    }
  }
  const rows =
    options?.rowMode === 'array'
      ? raw.rows
      : raw.rows.map((values) => {
          const byName: Record<string, unknown> = {};
          fields.forEach(({ name }, i) => {
            byName[name] = values[i];
          });
          return byName;
        });
  return { rows: rows as T[], fields, affectedRows: raw.affectedRows };
}
