import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildDocument, type FrontMatter } from '../../packages/document/src/index.js';
import { exportFileName, fileIdentity } from '../../src/modules/exports/exports.service.js';

const header = (name: string, from: string, to: string): FrontMatter => ({
  report: { id: 'r1', name, version: 3 },
  owner: { id: 'u1', name: 'Ada Lovelace' },
  period: { from, to },
  timezone: 'Europe/Paris',
  generatedAt: '2026-12-01T07:00:00.000Z',
  template: { id: 't1', name: 'Timesheet' },
  filters: { workspaceIds: ['w1'], dateRange: { from, to } },
  totalMinutes: 425,
});

const report = (name: string) => ({ name, periodFrom: '2026-01-01', periodTo: '2026-01-31' });

describe('fileIdentity', () => {
  it('names a version by its front matter, not by what its report is called now', () => {
    const markdown = buildDocument(header('November timesheet', '2026-11-01', '2026-11-30'), '# Body\n');
    const identity = fileIdentity(markdown, report('Renamed since'), 3, randomUUID());
    expect(identity).toEqual({ name: 'November timesheet', period: { from: '2026-11-01', to: '2026-11-30' }, version: 3 });
    expect(exportFileName(identity, 'pdf')).toBe('November timesheet 2026-11-01\u20132026-11-30 v3.pdf');
  });

  it('reads a version once: its front matter, from a document or from its head, answers every later call', () => {
    const id = randomUUID();
    const markdown = buildDocument(header('Kept', '2026-10-01', '2026-10-31'), 'x'.repeat(100_000));
    const first = fileIdentity(markdown.slice(0, 64 * 1024), report('Report'), 3, id);
    // A version never changes, so what was read holds for any later call naming it, even its head alone.
    expect(fileIdentity('', report('Other'), 3, id)).toEqual(first);
    expect(first.name).toBe('Kept');
    // Callers get their own copy.
    first.period.from = 'changed';
    expect(fileIdentity(markdown, report('Report'), 3, id).period.from).toBe('2026-10-01');
  });

  it("falls back to the report's current name and period where the document has no front matter, every time", () => {
    const id = randomUUID();
    expect(fileIdentity('# No header\n', report('First name'), 1, id).name).toBe('First name');
    // Nothing was read, so nothing is kept: the report's rename shows.
    expect(fileIdentity('# No header\n', report('Second name'), 1, id)).toEqual({
      name: 'Second name',
      period: { from: '2026-01-01', to: '2026-01-31' },
      version: 1,
    });
    // A head cut inside its front matter is not read as none for good: the whole document is read later.
    const whole = buildDocument(header('Whole', '2026-09-01', '2026-09-30'), '');
    expect(fileIdentity(whole.slice(0, 40), report('Fallback'), 1, id).name).toBe('Fallback');
    expect(fileIdentity(whole, report('Fallback'), 1, id).name).toBe('Whole');
  });

  it('keeps at most a thousand versions, the oldest leaving first', () => {
    const oldest = randomUUID();
    fileIdentity(buildDocument(header('Oldest', '2026-01-01', '2026-01-31'), ''), report('R'), 1, oldest);
    const other = buildDocument(header('Other', '2026-01-01', '2026-01-31'), '');
    for (let i = 0; i < 1_000; i++) fileIdentity(other, report('R'), 1, randomUUID());
    // The newest are kept; the oldest was evicted, so the call reads the document it is given again.
    const newest = randomUUID();
    fileIdentity(other, report('R'), 1, newest);
    expect(fileIdentity('', report('R'), 1, newest).name).toBe('Other');
    expect(fileIdentity(buildDocument(header('Read again', '2026-01-01', '2026-01-31'), ''), report('R'), 1, oldest).name).toBe(
      'Read again',
    );
  });
});
