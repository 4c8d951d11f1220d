/** Unsubscribe tokens (delivery.md §3): what each names comes back, and nothing else is accepted. */
import { describe, expect, it } from 'vitest';
import { readUnsubscribeToken, unsubscribeKey, unsubscribeToken, type Unsubscribe } from '../../src/modules/mail/unsubscribe.js';

const key = unsubscribeKey(Buffer.alloc(32, 9));
const other = unsubscribeKey(Buffer.alloc(32, 8));
const uuid = '01a22397-4503-7861-83a9-20b52ab88050';

describe('unsubscribe tokens', () => {
  it.each<Unsubscribe>([
    { kind: 'event', userId: uuid, event: 'inbox' },
    { kind: 'event', userId: uuid, event: 'discussion' },
    { kind: 'event', userId: uuid, event: 'scheduleProblems' },
    { kind: 'digest', userId: uuid },
    { kind: 'address', shareId: uuid },
    { kind: 'event', userId: 'user-20', event: 'inbox' },
    { kind: 'address', shareId: 'ünïcode-id' },
  ])('carries %j there and back, within a 100-character path segment', (target) => {
    const token = unsubscribeToken(key, target)!;
    expect(token.length).toBeLessThanOrEqual(100);
    expect(readUnsubscribeToken(key, token)).toEqual(target);
    // Another installation's key reads nothing.
    expect(readUnsubscribeToken(other, token)).toBeNull();
  });

  it('makes a UUID token of 43 characters', () => {
    expect(unsubscribeToken(key, { kind: 'digest', userId: uuid })).toHaveLength(43);
  });

  it('has no token for an id too long to carry', () => {
    expect(unsubscribeToken(key, { kind: 'digest', userId: 'x'.repeat(60) })).toBeNull();
    expect(unsubscribeToken(key, { kind: 'digest', userId: 'x'.repeat(59) })).not.toBeNull();
  });

  it('refuses anything altered or malformed', () => {
    const token = unsubscribeToken(key, { kind: 'event', userId: uuid, event: 'inbox' })!;
    const bytes = Buffer.from(token, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const altered = Buffer.from(bytes);
      altered[i] = altered[i]! ^ 1;
      expect(readUnsubscribeToken(key, altered.toString('base64url')), `byte ${i}`).toBeNull();
    }
    for (const bad of ['', 'x', '!'.repeat(43), token.slice(0, -1), `${token}A`, `${token}.x`, 'A'.repeat(101)]) {
      expect(readUnsubscribeToken(key, bad), bad).toBeNull();
    }
  });
});
