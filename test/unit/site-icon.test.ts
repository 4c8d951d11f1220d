import { describe, expect, it } from 'vitest';
import { icoOf } from '../../src/modules/site/site-icon.js';

describe('icoOf', () => {
  it('writes the ICO directory: a header, an entry per image with its size and offset, then the images', () => {
    const a = Buffer.from('first image');
    const b = Buffer.from('second');
    const ico = icoOf([
      { size: 16, png: a },
      { size: 256, png: b },
    ]);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 2]);
    // 16 pixels; 256 is written as 0.
    expect([ico[6], ico[7], ico[22], ico[23]]).toEqual([16, 16, 0, 0]);
    expect([ico.readUInt16LE(6 + 4), ico.readUInt16LE(6 + 6)]).toEqual([1, 32]);
    expect([ico.readUInt32LE(6 + 8), ico.readUInt32LE(6 + 12)]).toEqual([a.length, 38]);
    expect([ico.readUInt32LE(22 + 8), ico.readUInt32LE(22 + 12)]).toEqual([b.length, 38 + a.length]);
    expect(ico.subarray(38).toString()).toBe('first imagesecond');
  });

  it.each([0, 257, 1.5, Number.NaN])('refuses an image of %s pixels', (size) => {
    expect(() => icoOf([{ size, png: Buffer.from('x') }])).toThrow(RangeError);
  });
});
