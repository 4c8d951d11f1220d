/** Throttle keys of client addresses (docs/operations.md "Client addresses") and of e-mail addresses. */
import { describe, expect, it } from 'vitest';
import { clientBlock } from '../../src/lib/client-block.js';
import { normalizeEmail } from '../../src/lib/email.js';

describe('clientBlock', () => {
  it.each([
    ['198.51.100.7', '198.51.100.7'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['::FFFF:198.51.100.7', '198.51.100.7'],
    ['0:0:0:0:0:ffff:198.51.100.7', '198.51.100.7'],
    ['::ffff:c633:6407', '198.51.100.7'],
    ['2001:db8:85a3:0042:1000:8a2e:0370:7334', '2001:db8:85a3:42::/64'],
    ['2001:DB8:85A3:42::1', '2001:db8:85a3:42::/64'],
    ['2001:0db8:85a3:0042:ffff:ffff:ffff:ffff', '2001:db8:85a3:42::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::198.51.100.7', '64:ff9b:0:0::/64'],
    ['not-an-address', 'not-an-address'],
  ])('%s counts as %s', (address, block) => {
    expect(clientBlock(address)).toBe(block);
  });

  it('puts every address of one /64 in one block, and the neighbouring /64 in another', () => {
    const blocks = new Set(['2001:db8:1:2::1', '2001:db8:1:2:ffff::', '2001:0db8:0001:0002:1:2:3:4'].map(clientBlock));
    expect(blocks).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(clientBlock('2001:db8:1:3::1')).not.toBe(clientBlock('2001:db8:1:2::1'));
  });
});

describe('normalizeEmail', () => {
  it.each([
    ['Alice@Example.COM', 'alice@example.com'],
    ['  alice@example.com\t', 'alice@example.com'],
    // Only ASCII letters are lowered: JavaScript maps İ to "i̇" and PostgreSQL's lower() depends on
    // the locale, so a Unicode mapping could meet a different account in each place.
    ['alİce@example.com', 'alİce@example.com'],
    ['ALİCE@EXAMPLE.COM', 'alİce@example.com'],
    ['\u212Aate@example.com', '\u212Aate@example.com'],
  ])('%j is %j', (email, normal) => {
    expect(normalizeEmail(email)).toBe(normal);
  });
});
