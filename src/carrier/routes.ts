// Routes: ordered rules that choose the carriers for a message. The first rule whose every condition holds gives
// the carriers in order of preference (the first that is up takes the message; the rest are its failover).
// The last rule has no conditions: the fallback, so every message has a route. Pure, unit-tested beside it.
import { parsePhoneNumberFromString } from 'libphonenumber-js';

export type SenderType = 'alphanumeric' | 'number';

export interface RouteRule {
  /** ISO 3166 country codes of the destination (AU, NZ…). */
  country?: string[];
  /** E.164 prefixes of the destination, with their +. */
  prefix?: string[];
  /** Alphanumeric Sender IDs, or numbers (E.164 and short codes). */
  sender?: SenderType;
  /** Accounts pinned to these carriers. */
  account?: string[];
  /** Carrier ids, most preferred first. */
  carriers: string[];
}

export interface RouteInput {
  to: string;
  from: string;
  accountId?: string | undefined;
}

export class RoutesError extends Error {}

export const senderType = (from: string): SenderType => (/^\+?\d+$/.test(from) ? 'number' : 'alphanumeric');

/** The destination's country (ISO code), or null when the number names none. */
export function countryOf(to: string): string | null {
  return parsePhoneNumberFromString(to)?.country ?? null;
}

function matches(rule: RouteRule, input: RouteInput, country: () => string | null): boolean {
  if (rule.account && !(input.accountId !== undefined && rule.account.includes(input.accountId))) return false;
  if (rule.sender && senderType(input.from) !== rule.sender) return false;
  if (rule.prefix && !rule.prefix.some((p) => input.to.startsWith(p))) return false;
  if (rule.country) {
    const c = country();
    if (c === null || !rule.country.includes(c)) return false;
  }
  return true;
}

/** The carriers for a message, most preferred first (the last rule always matches). */
export function chooseRoute(rules: RouteRule[], input: RouteInput): { rule: number; carriers: string[] } {
  let memo: string | null | undefined;
  const country = () => (memo === undefined ? (memo = countryOf(input.to)) : memo);
  for (const [i, rule] of rules.entries()) if (matches(rule, input, country)) return { rule: i, carriers: rule.carriers };
  // parseRoutes makes the last rule a fallback; a hand-built list without one still routes somewhere.
  return { rule: rules.length - 1, carriers: rules.at(-1)?.carriers ?? [] };
}

const list = (where: string, v: unknown, test: RegExp, what: string): string[] => {
  const values = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(values) || values.length === 0 || values.some((x) => typeof x !== 'string' || !test.test(x))) {
    throw new RoutesError(`${where} must be ${what} or a non-empty list of them`);
  }
  return values as string[];
};

const CONDITIONS = ['country', 'prefix', 'sender', 'account'] as const;

/** Checks a routes list against the configured carrier ids; the last rule must be the fallback (no conditions). */
export function parseRoutes(raw: unknown, carrierIds: Set<string>): RouteRule[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new RoutesError('routes must be a non-empty array');
  const rules = raw.map((r: unknown, i): RouteRule => {
    const where = `routes[${i}]`;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) throw new RoutesError(`${where} must be an object`);
    const o = r as Record<string, unknown>;
    const unknown = Object.keys(o).find((k) => k !== 'carriers' && !(CONDITIONS as readonly string[]).includes(k));
    if (unknown !== undefined) throw new RoutesError(`${where}.${unknown} is not a route field (country, prefix, sender, account, carriers)`);
    const carriers = list(`${where}.carriers`, o.carriers, /^.+$/, 'a carrier id');
    const missing = carriers.find((c) => !carrierIds.has(c));
    if (missing !== undefined) throw new RoutesError(`${where}.carriers names "${missing}", which is not a configured carrier`);
    if (new Set(carriers).size !== carriers.length) throw new RoutesError(`${where}.carriers names a carrier twice`);
    const rule: RouteRule = { carriers };
    if (o.country !== undefined) rule.country = list(`${where}.country`, o.country, /^[A-Z]{2}$/, 'an ISO country code such as "AU"');
    if (o.prefix !== undefined) rule.prefix = list(`${where}.prefix`, o.prefix, /^\+\d{1,14}$/, 'an E.164 prefix such as "+6421"');
    if (o.account !== undefined) {
      rule.account = list(`${where}.account`, o.account, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'an account id');
    }
    if (o.sender !== undefined) {
      if (o.sender !== 'alphanumeric' && o.sender !== 'number') throw new RoutesError(`${where}.sender must be "alphanumeric" or "number"`);
      rule.sender = o.sender;
    }
    return rule;
  });
  const last = rules.at(-1)!;
  if (CONDITIONS.some((c) => last[c] !== undefined)) {
    throw new RoutesError('the last route must be the fallback: carriers only, no country, prefix, sender or account');
  }
  return rules;
}

/** The countries a route names, with the carriers that may serve each (for /status: a country with none bound). */
export function routedCountries(rules: RouteRule[]): Map<string, string[]> {
  const byCountry = new Map<string, string[]>();
  for (const rule of rules) {
    if (!rule.country || rule.account || rule.sender || rule.prefix) continue;
    for (const c of rule.country) if (!byCountry.has(c)) byCountry.set(c, rule.carriers);
  }
  return byCountry;
}
