import { describe, expect, it } from 'vitest';
import { asksForPage } from '../../src/http/not-found.js';

describe('asksForPage', () => {
  it.each([
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', true],
    ['TEXT/HTML', true],
    ['application/json, text/html;q=0.1', true],
    ['text/html ; q = 1.0', true],
    ['text/html;level=1', true],
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/*', false],
    ['application/json', false],
    ['text/html;q=0', false],
    ['text/html;q=0.0, */*', false],
    ['text/htmlx', false],
    [`${'a/b, '.repeat(2_000)}text/html`, true],
  ])('%s: %s', (accept, page) => {
    expect(asksForPage(accept)).toBe(page);
  });
});
