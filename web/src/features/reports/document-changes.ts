/**
 * What changed between two versions' documents, by block: each paragraph, heading, list or code
 * block is one unit, and each row of a table is one unit of its own, so a changed day total shows
 * as one changed row rather than a changed table. The units of both bodies are compared with a
 * longest-common-subsequence diff (the `diff` package's Myers diff), on the Markdown source, in the
 * browser; the pieces are then rendered by the one safe renderer like any document.
 */
import { diffArrays } from 'diff';

/**
 * How a unit fares: `same`, `added` (only in the later version), `removed` (only in the earlier),
 * or one of a changed pair: `before` (the earlier text) followed by `after` (the later one).
 */
export type Change = 'same' | 'added' | 'removed' | 'before' | 'after';

/** A unit of a document: a block, or a table row under its table's head (header and delimiter lines). */
interface Unit {
  markdown: string;
  head: string | null;
}

/** A block of Markdown, or a table whose rows each carry their change. */
export type Piece =
  { kind: 'block'; markdown: string; change: Change } | { kind: 'table'; head: string; rows: { markdown: string; change: Change }[] };

export interface DocumentChanges {
  pieces: Piece[];
  counts: { added: number; removed: number; changed: number };
}

/** Past this many differing units the comparison stops (a diff's cost grows with its edits). */
const MAX_EDITS = 2000;

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';
const opensTable = (lines: string[], i: number) => (lines[i] ?? '').includes('|') && DELIMITER_ROW.test(lines[i + 1] ?? '');

/** Splits a document body into its units (blank lines separate blocks; fenced code stays whole). */
export function unitsOf(body: string): Unit[] {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  const units: Unit[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i] ?? '';
    if (isBlank(line)) {
      i += 1;
      continue;
    }
    const fence = FENCE.exec(line)?.[1];
    if (fence) {
      let end = i + 1;
      while (end < lines.length && !(lines[end] ?? '').trimStart().startsWith(fence)) end += 1;
      units.push({ markdown: lines.slice(i, end + 1).join('\n'), head: null });
      i = end + 1;
      continue;
    }
    if (opensTable(lines, i)) {
      const head = `${line}\n${lines[i + 1] ?? ''}`;
      i += 2;
      while (i < lines.length && !isBlank(lines[i]) && (lines[i] ?? '').includes('|')) {
        units.push({ markdown: lines[i] ?? '', head });
        i += 1;
      }
      continue;
    }
    const start = i;
    i += 1;
    while (i < lines.length && !isBlank(lines[i]) && !FENCE.test(lines[i] ?? '') && !opensTable(lines, i)) i += 1;
    units.push({ markdown: lines.slice(start, i).join('\n'), head: null });
  }
  return units;
}

const sameUnit = (a: Unit, b: Unit) => a.head === b.head && a.markdown === b.markdown;

/** A row's first non-empty cell (its date or its label), or a block's kind (heading level, list, quote, fence, paragraph). */
function identity(unit: Unit): string {
  if (unit.head !== null) {
    const cells = unit.markdown.replace(/^\s*\|/, '').split('|');
    return `${unit.head}\n${cells.map((c) => c.trim()).find((c) => c !== '') ?? ''}`;
  }
  return /^ {0,3}(#{1,6} |[-*+] |\d+[.)] |>|`{3,}|~{3,})/.exec(unit.markdown)?.[1]?.trim() ?? 'paragraph';
}

/**
 * Compares two document bodies. In a run of removed and added units, a removed unit and a later
 * added one with the same identity (a row of the same table starting with the same date or label,
 * or a block of the same kind) are one changed unit, shown as its earlier text then its new one;
 * the others stay removed or added, in the later document's order. Null when the bodies differ in
 * more than MAX_EDITS units.
 */
export function compareDocuments(fromBody: string, toBody: string): DocumentChanges | null {
  const parts = diffArrays(unitsOf(fromBody), unitsOf(toBody), { comparator: sameUnit, maxEditLength: MAX_EDITS });
  if (!parts) return null;
  const marked: (Unit & { change: Change })[] = [];
  const counts = { added: 0, removed: 0, changed: 0 };
  const add = (units: Unit[]) => {
    for (const unit of units) marked.push({ ...unit, change: 'added' });
    counts.added += units.length;
  };
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (!part) continue;
    if (!part.added && !part.removed) {
      for (const unit of part.value) marked.push({ ...unit, change: 'same' });
      continue;
    }
    const next = parts[p + 1];
    const removed = part.removed ? part.value : [];
    const added = part.removed && next?.added ? next.value : part.added ? part.value : [];
    if (part.removed && next?.added) p += 1;
    let a = 0;
    for (const old of removed) {
      const key = identity(old);
      const match = added.findIndex((unit, k) => k >= a && identity(unit) === key);
      if (match === -1) {
        marked.push({ ...old, change: 'removed' });
        counts.removed += 1;
        continue;
      }
      add(added.slice(a, match));
      marked.push({ ...old, change: 'before' }, { ...(added[match] as Unit), change: 'after' });
      counts.changed += 1;
      a = match + 1;
    }
    add(added.slice(a));
  }
  return { pieces: group(marked), counts };
}

/** Consecutive rows under the same head become one table again. */
function group(units: (Unit & { change: Change })[]): Piece[] {
  const pieces: Piece[] = [];
  for (const unit of units) {
    const last = pieces.at(-1);
    if (unit.head === null) pieces.push({ kind: 'block', markdown: unit.markdown, change: unit.change });
    else if (last?.kind === 'table' && last.head === unit.head) last.rows.push({ markdown: unit.markdown, change: unit.change });
    else pieces.push({ kind: 'table', head: unit.head, rows: [{ markdown: unit.markdown, change: unit.change }] });
  }
  return pieces;
}
