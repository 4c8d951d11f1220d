import { describe, expect, it } from 'vitest';
import { entityTag } from '../../src/http/conditional.js';
import { generateSecret, hashSecret, newApiToken, sameSecret } from '../../src/lib/tokens.js';

/**
 * Stored token hashes and entity tags are compared with ones made by earlier releases: the digests
 * must stay SHA-256 and SHA-1 of the text's UTF-8, in the same encodings (FIPS 180 test vectors).
 */
describe('hashSecret', () => {
  it('is the hex SHA-256 of the UTF-8 text', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashSecret('käse')).toBe('28f37578d68271283cefa0f170127d2ec9544087515218a80d05b49f592413c9');
  });

  it('tells tokens apart', () => {
    const a = newApiToken();
    expect(a).toMatch(/^chr_[A-Za-z0-9_-]{43}$/);
    expect(hashSecret(a)).not.toBe(hashSecret(newApiToken()));
    expect(hashSecret(a)).toBe(hashSecret(a));
  });
});

describe('sameSecret', () => {
  it('holds for equal text only, whatever the lengths', () => {
    const secret = generateSecret();
    expect(sameSecret(secret, secret.concat(''))).toBe(true);
    expect(sameSecret(secret, secret.slice(0, -1))).toBe(false);
    expect(sameSecret(secret, `${secret}x`)).toBe(false);
    expect(sameSecret('', '')).toBe(true);
    expect(sameSecret('ü', 'u')).toBe(false);
  });
});

describe('entityTag', () => {
  it('is the quoted base64url SHA-1 of the bytes, the same for text and its UTF-8', () => {
    expect(entityTag('abc')).toBe('"qZk-NkcGgWq6PiVxeFDCbJzQ2J0"');
    expect(entityTag('same')).toBe('"_zOQVXM1uojTd1XkFRS-sDvEmew"');
    expect(entityTag('käse')).toBe(entityTag(Buffer.from('käse', 'utf8')));
  });
});
