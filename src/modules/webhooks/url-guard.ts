import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import type { LookupFunction } from 'node:net';

/**
 * SSRF protection for webhook URLs. Only public unicast addresses may receive webhooks unless
 * WEBHOOK_ALLOW_PRIVATE is set. The rule fails closed: anything that is not recognisably a public address
 * (unparseable strings, IPv6 outside 2000::/3, deprecated or special ranges) is refused.
 *
 * This check runs when a URL is saved, which gives the client an early, clear error. It is not the security
 * boundary on its own: DNS can change between save and send (DNS rebinding), so the HTTP sender re-checks the
 * address it actually connects to (see http-sender.ts).
 */

export type { LookupFunction };

const v4Blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, including the 169.254.169.254 cloud metadata service
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation (TEST-NET-1)
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation (TEST-NET-2)
  ['203.0.113.0', 24], // documentation (TEST-NET-3)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including 255.255.255.255 broadcast
] as const) {
  v4Blocked.addSubnet(net, prefix, 'ipv4');
}

// Only global unicast (2000::/3) can be public; everything outside it (::, ::1, fc00::/7, fe80::/10, ff00::/8,
// fec0::/10, 100::/64 …) is refused by that rule alone. These are the special blocks inside 2000::/3.
const v6GlobalUnicast = new BlockList();
v6GlobalUnicast.addSubnet('2000::', 3, 'ipv6');
const v6Blocked = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments, including Teredo 2001::/32 (embeds an obfuscated IPv4)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 SIDs
] as const) {
  v6Blocked.addSubnet(net, prefix, 'ipv6');
}

/**
 * Parses an IPv6 address (already validated by net.isIP) into 16 bytes. Handles `::` and a trailing dotted
 * IPv4 part. Needed because BlockList cannot extract the IPv4 address embedded in NAT64 or 6to4 addresses.
 */
function ipv6Bytes(ip: string): Uint8Array {
  // Rewrite a trailing dotted IPv4 part as two hex groups: ::ffff:127.0.0.1 → ::ffff:7f00:1.
  const text = ip.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_m, a: string, b: string, c: string, d: string) =>
    `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`);
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const words = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[i * 2] = w >> 8;
    bytes[i * 2 + 1] = w & 0xff;
  });
  return bytes;
}

const v4FromBytes = (b: Uint8Array, at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
const allZero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

function isPublicV4(ip: string): boolean {
  return !v4Blocked.check(ip, 'ipv4');
}

/** True only for a public unicast IPv4 or IPv6 address; false for anything else, including non-addresses. */
export function isPublicAddress(ip: string): boolean {
  // Zone ids (fe80::1%eth0) only occur on link-local addresses, which are refused anyway; strip so parsing works.
  const addr = ip.replace(/%.*$/, '');
  const family = isIP(addr);
  if (family === 4) return isPublicV4(addr);
  if (family !== 6) return false;

  const b = ipv6Bytes(addr);
  // IPv4-mapped ::ffff:a.b.c.d is how dual-stack sockets report IPv4 peers: judge the IPv4 address.
  if (allZero(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(v4FromBytes(b, 12));
  // NAT64 well-known prefix 64:ff9b::/96 reaches the embedded IPv4 address through a translator.
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && allZero(b, 4, 12)) {
    return isPublicV4(v4FromBytes(b, 12));
  }
  // 6to4 2002::/16 tunnels to the IPv4 address in bytes 2..5.
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4(v4FromBytes(b, 2));
  return v6GlobalUnicast.check(addr, 'ipv6') && !v6Blocked.check(addr, 'ipv6');
}

export type UrlCheckCode =
  /** not an absolute http(s) URL with a host */
  | 'invalid_url'
  /** http:// while private addresses (development mode) are not allowed */
  | 'https_required'
  /** the host is, or resolves to, a non-public address; also used when it does not resolve at all */
  | 'private_address';

export type UrlCheckResult = { ok: true } | { ok: false; code: UrlCheckCode; reason: string };

export type UrlCheckOptions = {
  /** WEBHOOK_ALLOW_PRIVATE: allows http:// and any address, for development and tests. */
  allowPrivate: boolean;
  /** Same shape as dns.lookup; injectable so tests can emulate DNS. Defaults to dns.lookup. */
  lookup?: LookupFunction;
};

/** Resolves every address of a hostname with a lookup function of dns.lookup's shape. */
export function lookupAll(lookup: LookupFunction, hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (err, addresses, family) => {
      if (err) return reject(err);
      if (typeof addresses === 'string') return resolve([{ address: addresses, family: family ?? isIP(addresses) }]);
      resolve(addresses);
    });
  });
}

/** The host of a parsed URL without IPv6 brackets: `[::1]` → `::1`. */
export function urlHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Validates a webhook URL when it is saved. Credentials in the URL (https://user:pass@host/) are allowed: some
 * receivers use basic auth and undici sends them as an Authorization header. They are stored with the URL, so
 * clients are better served by the signing secret; the API docs discourage it but we do not break existing
 * integrations by refusing.
 */
export async function checkWebhookUrl(input: string, opts: UrlCheckOptions): Promise<UrlCheckResult> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, code: 'invalid_url', reason: 'not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, code: 'invalid_url', reason: `unsupported scheme ${url.protocol.slice(0, -1)}` };
  }
  if (url.hostname === '') return { ok: false, code: 'invalid_url', reason: 'URL has no host' };
  if (opts.allowPrivate) return { ok: true };
  if (url.protocol !== 'https:') return { ok: false, code: 'https_required', reason: 'webhook URLs must use https' };

  // WHATWG URL parsing already normalises odd IPv4 forms (http://2130706433/, http://0x7f.1/) to dotted quads.
  const host = urlHost(url);
  if (isIP(host)) {
    return isPublicAddress(host)
      ? { ok: true }
      : { ok: false, code: 'private_address', reason: `${host} is not a public address` };
  }

  let addresses: LookupAddress[];
  try {
    addresses = await lookupAll(opts.lookup ?? (dnsLookup as LookupFunction), host);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'lookup failed';
    return { ok: false, code: 'private_address', reason: `${host} does not resolve (${code})` };
  }
  if (addresses.length === 0) return { ok: false, code: 'private_address', reason: `${host} has no addresses` };
  // Any private address refuses the whole host: a client cannot choose which address the sender connects to.
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) return { ok: false, code: 'private_address', reason: `${host} resolves to ${bad.address}, not a public address` };
  return { ok: true };
}
