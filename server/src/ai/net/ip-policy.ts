import { BlockList, isIP } from 'node:net';

/**
 * Addresses outbound AI HTTP must never reach unless allow-listed (ARCHITECTURE.md section 9):
 * "this" network, loopback, private (RFC 1918), CGNAT, link-local (cloud metadata 169.254.169.254),
 * IETF/test/benchmark ranges, multicast and reserved; on IPv6 unspecified, loopback, IPv4-mapped and
 * IPv4-compatible, NAT64, ULA (incl. fd00:ec2::254), link-local, site-local, documentation, multicast.
 */
// Separate lists: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const blocked4 = new BlockList();
const blocked6 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked4.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['::', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked6.addSubnet(net, bits, 'ipv6');
}

/** Strips IPv6 brackets and a zone id. */
export function normalizeIp(address: string): string {
  return address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase();
}

/** True for an address in a refused range (also for anything that is not an IP at all). */
export function isBlockedAddress(address: string): boolean {
  const ip = normalizeIp(address);
  const family = isIP(ip);
  if (family === 4) return blocked4.check(ip, 'ipv4');
  if (family === 6) {
    // IPv4-mapped and -compatible forms, dotted or hex, are refused outright.
    if (/^::(ffff:)?(\d+\.){3}\d+$/.test(ip) || /^::ffff:[0-9a-f]{1,4}:[0-9a-f]{1,4}$/.test(ip)) return true;
    return blocked6.check(ip, 'ipv6');
  }
  return true;
}

/**
 * The operator's exceptions (AI_HTTP_ALLOWLIST): host names (`intranet.example`, `*.corp.example`),
 * addresses (`10.0.0.5`, `::1`) and CIDR ranges (`10.1.0.0/16`, `fd00::/8`).
 */
export class Allowlist {
  private readonly hosts = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges = new BlockList();
  private hasRanges = false;

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const e = raw.trim().toLowerCase();
      if (!e) continue;
      const [addr, bits] = e.split('/');
      const ip = normalizeIp(addr);
      const family = isIP(ip);
      if (family) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
        if (Number.isInteger(prefix)) {
          this.ranges.addSubnet(ip, prefix, type);
          this.hasRanges = true;
        }
      } else if (e.startsWith('*.')) {
        this.suffixes.push(e.slice(1));
      } else {
        this.hosts.add(e);
      }
    }
  }

  allowsHost(host: string): boolean {
    const h = host.toLowerCase().replace(/\.$/, '');
    return this.hosts.has(h) || this.suffixes.some((s) => h.endsWith(s));
  }

  allowsAddress(address: string): boolean {
    if (!this.hasRanges) return false;
    const ip = normalizeIp(address);
    const family = isIP(ip);
    return family !== 0 && this.ranges.check(ip, family === 4 ? 'ipv4' : 'ipv6');
  }
}
