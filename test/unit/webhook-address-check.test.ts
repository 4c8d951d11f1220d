/** Which addresses a webhook may reach (docs/api.md "Webhooks"): every refused range, in both families and embedded forms. */
import { describe, expect, it } from 'vitest';
import { blockedReason, literalAddress } from '../../src/modules/webhooks/address-check.js';
import { resolveTarget } from '../../src/modules/webhooks/outbound-request.js';

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['100.64.0.1', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['::ffff:10.0.0.1', 'private (IPv4 in IPv6)'],
    ['::ffff:127.0.0.1', 'loopback (IPv4 in IPv6)'],
    ['::ffff:7f00:1', 'loopback (IPv4 in IPv6)'],
    ['::ffff:a9fe:a9fe', 'link-local (IPv4 in IPv6)'],
    ['64:ff9b::10.0.0.1', 'private (NAT64)'],
    ['2002:c0a8:0101::1', 'private (6to4)'],
    ['ff02::1', 'multicast'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(blockedReason(address)).toContain(reason);
  });

  it.each([
    '93.184.216.34',
    '172.32.0.1',
    '172.15.255.255',
    '192.169.0.1',
    '11.0.0.1',
    '2606:4700::1111',
    '::ffff:93.184.216.34',
    '2002:5db8:d822::1',
  ])('allows the public address %s', (address) => {
    expect(blockedReason(address)).toBeNull();
  });

  it('refuses text that is no address', () => {
    expect(blockedReason('example.com')).toBe('not an IP address');
  });
});

describe('literalAddress', () => {
  it('reads address hosts, IPv6 without brackets, and leaves names alone', () => {
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('hooks.example.com')).toBeNull();
  });
});

describe('resolveTarget', () => {
  const policy = (addresses: string[], allowPrivate = false) => ({
    allowHttp: false,
    allowPrivate,
    resolveHost: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  });

  it('refuses a name when any address it resolves to is private, and pins the first otherwise', async () => {
    const refused = await resolveTarget('https://hooks.example.com/x', policy(['93.184.216.34', '10.0.0.1']));
    expect(refused).toMatchObject({ ok: false });
    const pinned = await resolveTarget('https://hooks.example.com/x', policy(['93.184.216.34', '2606:4700::1111']));
    expect(pinned).toMatchObject({ ok: true, address: { address: '93.184.216.34', family: 4 } });
  });

  it('takes private addresses when allowed, and refuses http unless allowed', async () => {
    expect(await resolveTarget('https://hooks.example.com/', policy(['10.0.0.1'], true))).toMatchObject({ ok: true });
    expect(await resolveTarget('http://hooks.example.com/', policy(['93.184.216.34']))).toMatchObject({ ok: false });
  });

  it('refuses a name that resolves to nothing or does not resolve', async () => {
    expect(await resolveTarget('https://hooks.example.com/', policy([]))).toMatchObject({ ok: false });
    const failing = { allowHttp: false, allowPrivate: false, resolveHost: () => Promise.reject(new Error('ENOTFOUND')) };
    expect(await resolveTarget('https://hooks.example.com/', failing)).toMatchObject({ ok: false });
  });

  it('sees through numeric host forms the URL parser normalises', async () => {
    for (const url of ['https://0x7f000001/', 'https://2130706433/', 'https://[::ffff:127.0.0.1]/', 'https://127.1/']) {
      expect(await resolveTarget(url, policy([]))).toMatchObject({ ok: false });
    }
  });
});
