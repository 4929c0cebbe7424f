import { BlockList, isIP } from 'node:net';
import { parseNetwork } from '../../networks';

/**
 * Where a webhook may send (SSRF guard, docs/decisions/0092-webhooks.md): pure functions over IP addresses. A webhook
 * is saved and sent only to public addresses unless the operator allows more (WEBHOOK_ALLOW_PRIVATE_NETWORKS,
 * WEBHOOK_ALLOWED_NETWORKS in config.ts).
 */

export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'metadata'
  | 'unique-local'
  | 'multicast'
  | 'broadcast'
  | 'reserved';

const CLASS_TEXT: Record<Exclude<AddressClass, 'public'>, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private network address',
  shared: 'a carrier-grade NAT address',
  'link-local': 'a link-local address',
  metadata: 'the cloud metadata address',
  'unique-local': 'a unique local IPv6 address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved address',
};

const IPV4_RANGES: [string, number, AddressClass][] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['100.64.0.0', 10, 'shared'],
  ['169.254.0.0', 16, 'link-local'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const IPV6_RANGES: [string, number, AddressClass][] = [
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'],
  ['fc00::', 7, 'unique-local'],
  ['ff00::', 8, 'multicast'],
  ['2001:db8::', 32, 'reserved'],
  ['100::', 64, 'reserved'],
];

/** The cloud providers' instance metadata services: never reached, however private networks are allowed. */
const METADATA = new Set(['169.254.169.254', 'fd00:ec2::254', '100.100.100.200']);

function blockListOf(ranges: [string, number, AddressClass][], family: 'ipv4' | 'ipv6') {
  return ranges.map(([network, prefix, kind]) => {
    const list = new BlockList();
    list.addSubnet(network, prefix, family);
    return { list, kind };
  });
}
const V4 = blockListOf(IPV4_RANGES, 'ipv4');
const V6 = blockListOf(IPV6_RANGES, 'ipv6');

/** Sixteen bytes of an IPv6 address (any of its written forms), or null. */
function ipv6Bytes(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const parts = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, -v4[1]!.length)}${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  if (groups.length !== 8) return null;
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 255];
  });
}

/**
 * The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96),
 * which is where a connection to it ends up; null for any other.
 */
export function embeddedIpv4(address: string): string | null {
  const bytes = ipv6Bytes(address);
  if (!bytes) return null;
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  const mapped = zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff;
  const compatible = zeros(0, 12) && !zeros(12, 16) && !(zeros(12, 15) && bytes[15] === 1);
  const nat64 = bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12);
  return mapped || compatible || nat64 ? bytes.slice(12).join('.') : null;
}

/** What kind of address this is; 'reserved' for text that is no IP address. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 4) {
    if (address === '255.255.255.255') return 'broadcast';
    if (METADATA.has(address)) return 'metadata';
    return V4.find((r) => r.list.check(address, 'ipv4'))?.kind ?? 'public';
  }
  if (family === 6) {
    const bytes = ipv6Bytes(address)!;
    if (bytes.every((b) => b === 0)) return 'unspecified';
    if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return 'loopback';
    const v4 = embeddedIpv4(address);
    if (v4) return classifyAddress(v4);
    const canonical = bytes.reduce(
      (text, b, i) => text + (i % 2 ? b.toString(16).padStart(2, '0') : (i ? ':' : '') + b.toString(16)),
      '',
    );
    if (METADATA.has(address.toLowerCase())) return 'metadata';
    return V6.find((r) => r.list.check(canonical, 'ipv6'))?.kind ?? 'public';
  }
  return 'reserved';
}

/** What the operator allows beyond public addresses. */
export interface AddressPolicy {
  /** Loopback, private, carrier-grade NAT, link-local and unique local addresses (not the metadata address). */
  allowPrivateNetworks: boolean;
  /** Networks allowed whatever they are (CIDR, e.g. 127.0.0.0/8 or 10.20.0.0/16), the metadata address too. */
  allowedNetworks: string[];
}

export const DEFAULT_ADDRESS_POLICY: AddressPolicy = { allowPrivateNetworks: false, allowedNetworks: [] };

/** Never allowed: nothing listens there, or everything does (0.0.0.0 is this host). */
const NEVER: ReadonlySet<AddressClass> = new Set(['unspecified', 'multicast', 'broadcast']);
const PRIVATE: ReadonlySet<AddressClass> = new Set([
  'loopback',
  'private',
  'shared',
  'link-local',
  'unique-local',
]);

function inNetworks(address: string, networks: string[]): boolean {
  if (!networks.length) return false;
  const list = new BlockList();
  for (const text of networks) {
    const network = parseNetwork(text);
    if (network) list.addSubnet(network.network, network.prefix, network.family === 4 ? 'ipv4' : 'ipv6');
  }
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  if (v4 && list.check(v4, 'ipv4')) return true;
  return list.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/**
 * Why a webhook may not go to this address, in words for its administrator ("127.0.0.1 is a loopback address: …",
 * or with the host name it was resolved from, "localhost resolves to 127.0.0.1, a loopback address: …"); null
 * when it may.
 */
export function addressRefusal(address: string, policy: AddressPolicy, hostname?: string): string | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  const text =
    hostname && hostname !== address
      ? `${hostname} resolves to ${address}, ${CLASS_TEXT[kind]}`
      : `${address} is ${CLASS_TEXT[kind]}`;
  if (NEVER.has(kind)) return `${text}: a webhook cannot go there`;
  if (inNetworks(address, policy.allowedNetworks)) return null;
  if (policy.allowPrivateNetworks && PRIVATE.has(kind)) return null;
  return `${text}: webhooks go only to public addresses unless the operator allows this network`;
}
