/**
 * The client a throttle counts (docs/operations.md "Client addresses"): an IPv4 address as it is,
 * an IPv6 address as its /64, since one subscriber usually holds a whole /64 and could otherwise
 * take a fresh address for every attempt. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is the IPv4
 * address it maps. Anything that is not an IP address (a test's made-up name) is kept as it is.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The 16-bit groups of an IPv6 address (zone dropped, `::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::', 2);
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [Number.parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [a * 256 + b, c * 256 + d];
    });
  };
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The throttle key of a client address: IPv4 as is, IPv6 as `<first four groups>::/64`. */
export function clientBlock(address: string): string {
  const bare = address.replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}
