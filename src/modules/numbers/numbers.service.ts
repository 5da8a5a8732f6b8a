import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { normalisePhone } from '../messages/phone.ts';
import { assertHierarchyEnabled, loadManagedAccount } from '../accounts/access.ts';
import {
  heldBy, leaseFromPool, listAvailable, listGroupNumbers, listNumbers, moveNumbers, type NumberRow,
} from './numbers.repo.ts';

const view = (n: NumberRow) => ({
  id: n.id, number: n.number, country: n.country, price_monthly: n.priceMonthly,
  assigned_at: n.assignedAt?.toISOString() ?? null, created_at: n.createdAt.toISOString(),
});

function unavailable(list: string[]): AppError {
  return new AppError('number_unavailable', `Not available to move: ${list.join(', ')}`, { numbers: list });
}

/** `numbers` as one string or an array, each normalised to E.164; any invalid one is a 400 before anything moves. */
function parseNumbers(input: string | string[]): string[] {
  const given = typeof input === 'string' ? [input] : input;
  const out = new Set<string>();
  for (const raw of given) {
    const phone = normalisePhone(raw);
    if (!phone.ok) throw new AppError('invalid_number', `"${raw}" is not an Australian or New Zealand mobile number`);
    out.add(phone.e164);
  }
  if (out.size === 0) throw new AppError('validation_failed', 'numbers must name at least one number', { details: [{ field: 'numbers', message: 'must not be empty' }] });
  return [...out];
}

export function createNumberService(deps: { db: Db }) {
  const { db } = deps;

  async function mine(actor: Actor) {
    return { numbers: (await listNumbers(db, actor.accountId)).map(view) };
  }

  async function group(actor: Actor) {
    assertHierarchyEnabled(actor);
    const list = await listGroupNumbers(db, actor.accountId);
    return { numbers: list.map((n) => ({ ...view(n), account_id: n.accountId!, business_name: n.businessName })) };
  }

  async function available(_actor: Actor, q: { country?: 'AU' | 'NZ'; limit: number; offset: number }) {
    const list = await listAvailable(db, q);
    return {
      numbers: list.map((n) => ({ id: n.id, number: n.number, country: n.country, price_monthly: n.priceMonthly })),
      limit: q.limit, offset: q.offset,
    };
  }

  /** Leases a pool number to the caller: the one named, or the first free one of the country (or of any). */
  async function purchase(actor: Actor, input: { number?: string; country?: 'AU' | 'NZ' }) {
    let number: string | undefined;
    if (input.number !== undefined) {
      const phone = normalisePhone(input.number);
      if (!phone.ok || (input.country && phone.country !== input.country)) {
        throw new AppError('invalid_number', `"${input.number}" is not ${input.country ? `an ${input.country}` : 'an AU or NZ'} mobile number`);
      }
      number = phone.e164;
    }
    const leased = await leaseFromPool(db, actor.accountId, { number, country: input.country });
    if (!leased) {
      throw new AppError('number_unavailable', number ? `${number} is not available` : `No number is available${input.country ? ` in ${input.country}` : ''}`);
    }
    return { ok: true, number: view(leased) };
  }

  async function forAccount(actor: Actor, accountId: string) {
    await loadManagedAccount(db, actor, accountId, { write: false });
    return { numbers: (await listNumbers(db, accountId)).map(view) };
  }

  /**
   * Moves the parent's numbers to the sub-account, all or none. A number the sub-account already holds counts as
   * assigned; any other number the parent does not hold (another account's, the pool's, unknown) is 409.
   */
  async function assign(actor: Actor, accountId: string, input: string | string[]) {
    const list = parseNumbers(input);
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const already = new Set(await heldBy(tx, accountId, list));
      const wanted = list.filter((n) => !already.has(n));
      const moved = new Set(await moveNumbers(tx, actor.accountId, accountId, wanted));
      const missing = wanted.filter((n) => !moved.has(n));
      if (missing.length > 0) throw unavailable(missing);
      return { ok: true, assigned: list };
    });
  }

  /** Moves numbers from the sub-account back to the parent, all or none; one it does not hold is 409. */
  async function recall(actor: Actor, accountId: string, input: string | string[]) {
    const list = parseNumbers(input);
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const moved = new Set(await moveNumbers(tx, accountId, actor.accountId, list));
      const missing = list.filter((n) => !moved.has(n));
      if (missing.length > 0) throw unavailable(missing);
      return { ok: true, recalled: list };
    });
  }

  return { mine, group, available, purchase, forAccount, assign, recall };
}

export type NumberService = ReturnType<typeof createNumberService>;
