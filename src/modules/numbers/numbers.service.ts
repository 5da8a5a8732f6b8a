import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { invalidNumberMessage, normalisePhone, type PhoneCountry } from '../../common/phone.ts';
import { assertHierarchyEnabled, loadManagedAccount } from '../accounts/access.ts';
import { changeCredits } from '../credits/credits.service.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';
import {
  claimDueNumbers, heldBy, leaseFromPool, listAvailable, listGroupNumbers, listNumbers, lockForPurchase, markRenewed,
  markUnpaid, moveNumbers, releaseToPool, type NumberRow,
} from './numbers.repo.ts';
import { periodEnd, rentalCredits, unpaidAction } from './rental.ts';
import { record } from '../../platform/audit/record.ts';
import { systemActor } from '../../platform/audit/entry.ts';

/**
 * A held number as every listing shows it. `assigned_to` is the account holding it; `status` is `active`, or
 * `past_due` during the 7-day grace after a renewal could not be paid; `paid_until` is null for numbers the
 * operator assigned (not rented).
 */
const view = (n: NumberRow) => ({
  id: n.id, number: n.number, country: n.country, price_monthly: n.priceMonthly, label: n.label,
  assigned_to: n.accountId, status: n.unpaidSince ? 'past_due' as const : 'active' as const,
  paid_until: n.paidUntil?.toISOString() ?? null,
  assigned_at: n.assignedAt?.toISOString() ?? null, created_at: n.createdAt.toISOString(),
});

export interface NumberServiceDeps {
  db: Db;
  /** CREDIT_PRICE_CENTS */
  creditPriceCents: number;
  /** MAX_NUMBERS: the cap for accounts without their own max_numbers */
  maxNumbers: number;
  now?: () => Date;
}

function unavailable(list: string[]): AppError {
  return new AppError('number_unavailable', `Not available to move: ${list.join(', ')}`, { numbers: list });
}

/** `numbers` as one string or an array, each normalised to E.164; any invalid one is a 400 before anything moves. */
function parseNumbers(input: string | string[], home: PhoneCountry): string[] {
  const given = typeof input === 'string' ? [input] : input;
  const out = new Set<string>();
  for (const raw of given) {
    const phone = normalisePhone(raw, home);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(raw, phone.reason));
    out.add(phone.e164);
  }
  if (out.size === 0) throw new AppError('validation_failed', 'numbers must name at least one number', { details: [{ field: 'numbers', message: 'must not be empty' }] });
  return [...out];
}

export function createNumberService(deps: NumberServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

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

  /**
   * Leases a pool number to the caller: the one named, or the first free one of the country (or of any). The
   * first 30 days are charged at once, in the same transaction (402 and nothing leased when the balance is
   * short); a family (a parent and its sub-accounts) holding its cap already is 403 `number_limit_reached`.
   */
  async function purchase(actor: Actor, input: { number?: string; country?: 'AU' | 'NZ'; label?: string }) {
    let number: string | undefined;
    if (input.number !== undefined) {
      const phone = normalisePhone(input.number, input.country ?? actor.account.settings.country);
      if (!phone.ok || (input.country && phone.country !== input.country)) {
        throw new AppError('invalid_number', `"${input.number}" is not ${input.country ? `an ${input.country}` : 'an AU or NZ'} mobile number`);
      }
      number = phone.e164;
    }
    const label = input.label?.trim() || null;
    return db.transaction(async (tx) => {
      const account = await lockForPurchase(tx, actor.accountId);
      // The family's cap (the parent's max_numbers, else MAX_NUMBERS) bounds a parent and its sub-accounts together;
      // a sub-account's own max_numbers, when the operator set one, bounds it alone as well.
      const familyCap = account.familyMaxNumbers ?? deps.maxNumbers;
      if (account.familyHeld >= familyCap) {
        throw new AppError('number_limit_reached', `This account and its family may hold at most ${familyCap} dedicated numbers together`, { max_numbers: familyCap });
      }
      if (account.maxNumbers !== null && account.held >= account.maxNumbers) {
        throw new AppError('number_limit_reached', `This account may hold at most ${account.maxNumbers} dedicated numbers`, { max_numbers: account.maxNumbers });
      }
      const leased = await leaseFromPool(tx, actor.accountId, { number, country: input.country, label, paidUntil: periodEnd(now()) });
      if (!leased) {
        throw new AppError('number_unavailable', number ? `${number} is not available` : `No number is available${input.country ? ` in ${input.country}` : ''}`);
      }
      const credits = rentalCredits(leased.priceMonthly, deps.creditPriceCents);
      const balance = credits > 0 ? await changeCredits(tx, { accountId: actor.accountId, delta: -credits, kind: 'number' }) : account.credits;
      if (balance === null) throw insufficientCredits(credits, account.credits);
      await record(tx, {
        accountId: actor.accountId, actor, action: 'number.bought', target: { type: 'number', id: leased.number },
        after: { number: leased.number, label: leased.label, country: leased.country, price_monthly: leased.priceMonthly, credits_charged: credits },
      });
      return {
        ok: true as const,
        number: leased.number,
        number_id: leased.id,
        label: leased.label,
        status: 'active' as const,
        billing_reference: null,
        country: leased.country,
        price_monthly: leased.priceMonthly,
        credits_charged: credits,
        credits_remaining: balance,
        paid_until: leased.paidUntil?.toISOString() ?? null,
      };
    });
  }

  /**
   * The renewal job: every rented number whose period has ended is charged its next 30 days (a `number` ledger
   * row). When the holder cannot pay, the number stays theirs for a 7-day grace (`past_due`), retried on each
   * run, then returns to the pool. Claims with SKIP LOCKED, one transaction per number, so any number of workers
   * may run it. Returns what it did.
   */
  async function renewDue(opts: { batch?: number } = {}) {
    const done = { renewed: 0, unpaid: 0, released: 0 };
    const skip: string[] = [];
    while (done.renewed + done.unpaid + done.released < (opts.batch ?? 1000)) {
      const handled = await db.transaction(async (tx) => {
        const [due] = await claimDueNumbers(tx, 1, skip);
        if (!due) return false;
        const credits = rentalCredits(due.priceMonthly, deps.creditPriceCents);
        const paid = credits === 0 || (await changeCredits(tx, { accountId: due.accountId, delta: -credits, kind: 'number' })) !== null;
        const audit = (action: string, after: Record<string, unknown>) => record(tx, {
          accountId: due.accountId, actor: systemActor('number-renewal'), action, target: { type: 'number', id: due.number }, after,
        });
        if (paid) {
          const paidUntil = periodEnd(due.paidUntil);
          await markRenewed(tx, due.id, paidUntil);
          await audit('number.renewed', { credits_charged: credits, paid_until: paidUntil });
          done.renewed += 1;
          return true;
        }
        const action = unpaidAction(due.unpaidSince, now());
        if (action === 'release') {
          await releaseToPool(tx, due.id);
          await audit('number.released', { reason: 'unpaid' });
          done.released += 1;
        } else {
          if (action === 'start_grace') {
            await markUnpaid(tx, due.id, now());
            await audit('number.past_due', { credits_due: credits });
          }
          done.unpaid += 1;
          // Still due: the next run tries again.
          skip.push(due.id);
        }
        return true;
      });
      if (!handled) break;
    }
    return done;
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
    const list = parseNumbers(input, actor.account.settings.country);
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const already = new Set(await heldBy(tx, accountId, list));
      const wanted = list.filter((n) => !already.has(n));
      const moved = new Set(await moveNumbers(tx, actor.accountId, accountId, wanted));
      const missing = wanted.filter((n) => !moved.has(n));
      if (missing.length > 0) throw unavailable(missing);
      if (wanted.length > 0) {
        await record(tx, {
          accountId: actor.accountId, actor, action: 'number.assigned', target: { type: 'account', id: accountId }, after: { numbers: wanted },
        });
      }
      return { ok: true, assigned: list };
    });
  }

  /** Moves numbers from the sub-account back to the parent, all or none; one it does not hold is 409. */
  async function recall(actor: Actor, accountId: string, input: string | string[]) {
    const list = parseNumbers(input, actor.account.settings.country);
    return db.transaction(async (tx) => {
      await loadManagedAccount(tx, actor, accountId, { write: true, lock: true });
      const moved = new Set(await moveNumbers(tx, accountId, actor.accountId, list));
      const missing = list.filter((n) => !moved.has(n));
      if (missing.length > 0) throw unavailable(missing);
      await record(tx, {
        accountId: actor.accountId, actor, action: 'number.recalled', target: { type: 'account', id: accountId }, before: { numbers: list },
      });
      return { ok: true, recalled: list };
    });
  }

  return { mine, group, available, purchase, renewDue, forAccount, assign, recall };
}

export type NumberService = ReturnType<typeof createNumberService>;
