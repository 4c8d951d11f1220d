import { describe, expect, it } from 'vitest';
import {
  detectDateFormat,
  parseBillable,
  parseClockDuration,
  parseDate,
  parseDecimalHours,
  parseTime,
  splitTags,
} from '../../packages/import/src/formats.js';
import { readExport } from '../../packages/import/src/read-export.js';

describe('export cells', () => {
  it('reads dates in each layout and refuses impossible ones', () => {
    expect(parseDate('2026-02-28', 'YYYY-MM-DD')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseDate('02/28/2026', 'MM/DD/YYYY')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseDate('28/02/2026', 'DD/MM/YYYY')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseDate('28.02.2026', 'DD.MM.YYYY')).toEqual({ year: 2026, month: 2, day: 28 });
    expect(parseDate('2026-02-30', 'YYYY-MM-DD')).toBeNull();
    expect(parseDate('28/02/2026', 'MM/DD/YYYY')).toBeNull();
    expect(parseDate('0999-01-01', 'YYYY-MM-DD')).toBeNull();
    expect(parseDate('yesterday', 'YYYY-MM-DD')).toBeNull();
  });

  it('detects the date layout of a file', () => {
    expect(detectDateFormat(['2026-10-05'])).toBe('YYYY-MM-DD');
    expect(detectDateFormat(['10/05/2026', '10/06/2026'])).toBe('MM/DD/YYYY');
    expect(detectDateFormat(['10/05/2026', '25/10/2026'])).toBe('DD/MM/YYYY');
    expect(detectDateFormat(['05.10.2026'])).toBe('DD.MM.YYYY');
  });

  it('reads 24-hour and 12-hour times', () => {
    expect(parseTime('09:05')).toBe(9 * 3600 + 300);
    expect(parseTime('23:59:59')).toBe(86399);
    expect(parseTime('12:00:00 AM')).toBe(0);
    expect(parseTime('12:30 PM')).toBe(12 * 3600 + 1800);
    expect(parseTime('01:15:00 pm')).toBe(13 * 3600 + 900);
    expect(parseTime('24:00')).toBeNull();
    expect(parseTime('13:00 PM')).toBeNull();
    expect(parseTime('9h')).toBeNull();
  });

  it('reads odd durations', () => {
    expect(parseClockDuration('01:30:00')).toBe(5400);
    expect(parseClockDuration('0:13')).toBe(780);
    expect(parseClockDuration('125:00:00')).toBe(450000);
    expect(parseClockDuration('00:00:20')).toBe(20);
    expect(parseClockDuration('1:75')).toBeNull();
    expect(parseClockDuration('-1:00')).toBeNull();
    expect(parseDecimalHours('1.50')).toBe(5400);
    expect(parseDecimalHours('0,25')).toBe(900);
    expect(parseDecimalHours('abc')).toBeNull();
  });

  it('reads Billable as Yes/No or true/false, in any case', () => {
    expect(['Yes', 'yes', ' TRUE ', 'true'].map(parseBillable)).toEqual([true, true, true, true]);
    expect(['No', 'NO', 'false', 'False'].map(parseBillable)).toEqual([false, false, false, false]);
    expect(['', 'Y', '1', 'maybe', 'yes please'].map(parseBillable)).toEqual([null, null, null, null, null]);
  });

  it('splits tags, dropping blanks and duplicates', () => {
    expect(splitTags('design, review,design, ,')).toEqual(['design', 'review']);
    expect(splitTags('')).toEqual([]);
  });
});

describe('readExport', () => {
  const header = 'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags,Amount ()';

  it('numbers rows by the line they start on, across quoted newlines and blank lines', () => {
    const text = [
      header,
      'A,a@x.io,,P,,"one\ntwo\nthree",No,2026-03-29,01:30:00,,,00:30:00,,',
      '',
      'A,a@x.io,,,,"x",No,2026-03-29,03:30:00,,,00:30:00,"t1, t2",',
      'A,a@x.io,,,,"short",No,2026-03-29,03:30:00,,,00:00:10,,',
      'A,,,,,"no mail",No,2026-13-01,25:00,,,x,,',
    ].join('\r\n');
    const read = readExport(text, 'toggl', { timezone: 'Europe/Berlin' });
    expect(read.rows.map((r) => r.line)).toEqual([2, 6]);
    // Across the spring-forward change: 01:30 is +01:00, 03:30 is +02:00.
    expect(read.rows.map((r) => r.start)).toEqual(['2026-03-29T01:30:00+01:00', '2026-03-29T03:30:00+02:00']);
    expect(read.rows[0]).toMatchObject({ description: 'one\ntwo\nthree', project: 'P', minutes: 30 });
    expect(read.rows[1]).toMatchObject({ project: null, tags: ['t1', 't2'] });
    expect(read.skipped).toEqual([{ line: 7, column: 'Duration', message: 'is under 30 seconds (0 minutes)' }]);
    expect(read.failed).toEqual([
      { line: 8, column: 'Email', message: 'is empty; users are matched by e-mail' },
      { line: 8, column: 'Start date', message: 'cannot read "2026-13-01" as a date (YYYY-MM-DD)' },
      { line: 8, column: 'Start time', message: 'cannot read "25:00" as a time of day' },
      { line: 8, column: 'Duration', message: 'cannot read "x" as a duration (H:MM:SS)' },
    ]);
  });

  it('reads a repeated hour as its first instant and measures end minus start across the change, in any season', () => {
    // Berlin's clocks went from 03:00 back to 02:00 on 2026-10-25: 02:30 happened at 00:30 and at 01:30 UTC.
    const text = [
      'User,Email,Client,Project,Task,Description,Billable,Start date,Start time,End date,End time,Duration,Tags',
      'A,a@x.io,,,,first,No,2026-10-25,02:30:00,2026-10-25,03:10:00,,',
      'A,a@x.io,,,,skipped hour,No,2026-03-29,02:30:00,2026-03-29,04:00:00,,',
    ].join('\n');
    const read = readExport(text, 'toggl', { timezone: 'Europe/Berlin' });
    expect(read.failed).toEqual([]);
    expect(read.rows.map((r) => [r.start, r.minutes])).toEqual([
      ['2026-10-25T02:30:00+02:00', 100],
      // 02:30 did not exist on 2026-03-29: it is read past the gap, as 03:30.
      ['2026-03-29T03:30:00+02:00', 30],
    ]);
  });

  it('refuses rows with a different field count, and descriptions and tags over the limits', () => {
    const text = [
      header,
      'A,a@x.io,,,,too few',
      `A,a@x.io,,,,"${'d'.repeat(2001)}",No,2026-03-02,09:00:00,,,00:30:00,,`,
      `A,a@x.io,,,,"x",No,2026-03-02,09:00:00,,,00:30:00,"${'t'.repeat(51)}",`,
    ].join('\n');
    const read = readExport(text, 'toggl', { timezone: 'UTC' });
    expect(read.rows).toEqual([]);
    expect(read.failed.map((f) => `${f.line} ${f.column} ${f.message}`)).toEqual([
      '2 null has 6 fields where the header has 14',
      '3 Description is 2001 characters long; at most 2000',
      '4 Tags has a tag of 51 characters; at most 50',
    ]);
  });

  it("reads each row's Billable and client; an unreadable Billable is a problem naming the column", () => {
    const text = [
      header,
      'A,a@x.io,"Acme, Inc.",P,,one,Yes,2026-03-02,09:00:00,,,00:30:00,,10.00',
      'A,a@x.io,,P,,two,false,2026-03-02,10:00:00,,,00:30:00,,0.00',
      'A,a@x.io, Globex ,,,three,TRUE,2026-03-02,11:00:00,,,00:30:00,,0.00',
      'A,a@x.io,,P,,four,maybe,2026-03-02,12:00:00,,,00:30:00,,0.00',
      'A,a@x.io,,P,,five,,2026-03-02,13:00:00,,,00:30:00,,0.00',
    ].join('\n');
    const read = readExport(text, 'toggl', { timezone: 'UTC' });
    expect(read.rows.map((r) => [r.line, r.client, r.billable])).toEqual([
      [2, 'Acme, Inc.', true],
      [3, null, false],
      [4, 'Globex', true],
    ]);
    expect(read.failed).toEqual([
      { line: 5, column: 'Billable', message: 'cannot read "maybe" as billable (Yes, No, true or false)' },
      { line: 6, column: 'Billable', message: 'cannot read "" as billable (Yes, No, true or false)' },
    ]);
    expect(read.columns).toMatchObject({ billable: 'Billable', client: 'Client' });
  });

  it("reads Clockify's Billable and Client columns", () => {
    const text = [
      '"Project","Client","Description","Email","Billable","Start Date","Start Time","Duration (h)","Billable Rate (USD)"',
      '"P","Northwind","x","a@x.io","No","10/05/2026","09:00:00 AM","01:00:00","100.00"',
    ].join('\n');
    const read = readExport(text, 'clockify', { timezone: 'UTC' });
    expect(read.rows[0]).toMatchObject({ client: 'Northwind', billable: false, minutes: 60 });
  });

  it('leaves billable out, and the client empty, when the file has no such columns', () => {
    const text = ['Email,Project,Description,Start date,Start time,Duration', 'a@x.io,P,x,2026-03-02,09:00:00,00:30:00'].join('\n');
    const read = readExport(text, 'toggl', { timezone: 'UTC' });
    expect(read.failed).toEqual([]);
    expect(read.rows[0]).toMatchObject({ client: null, project: 'P' });
    expect(read.rows[0]).not.toHaveProperty('billable');
    expect(read.columns).not.toHaveProperty('billable');
  });
});
