import type { Static } from 'typebox';
import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { assertHierarchyEnabled, loadManagedAccount } from '../accounts/access.ts';
import { addDays, resolveRange, type ReportRange } from './report-range.ts';
import { dailyCounts, usageByAccount, type MessageCounters, type ReportFilters, type Usage } from './reports.repo.ts';
import type { GroupReport, RangeQuery, ReportQuery, UsageReport } from './reports.schemas.ts';

export type ReportInput = Static<typeof ReportQuery>;
export type RangeInput = Static<typeof RangeQuery>;

/** `+` in an unencoded query string arrives as a space; digits without `+` are international form. */
function normaliseNumber(raw: string): string {
  return `+${raw.trim().replace(/^\+/, '')}`;
}

function toFilters(q: ReportInput): ReportFilters {
  return {
    direction: q.direction ?? 'all',
    ...(q.status ? { status: q.status } : {}),
    ...(q.country ? { country: q.country } : {}),
    ...(q.campaign_id ? { campaignId: q.campaign_id } : {}),
    ...(q.keyword !== undefined ? { keyword: q.keyword } : {}),
    ...(q.number ? { number: normaliseNumber(q.number) } : {}),
  };
}

/** delivered / final outcomes; 0 rather than NaN when nothing has reached one. */
export function deliveryRate(m: Pick<MessageCounters, 'delivered' | 'failed'>): number {
  const finals = m.delivered + m.failed;
  return finals === 0 ? 0 : m.delivered / finals;
}

function usageReport(usage: Usage, range: ReportRange, f: ReportFilters): Static<typeof UsageReport> {
  return {
    account_id: usage.accountId,
    from: range.from,
    to: range.to,
    summary: {
      messages: usage.messages,
      credits_consumed: usage.creditsConsumed,
      inbound: usage.inbound,
      optouts: usage.optouts,
    },
    filters: {
      direction: f.direction,
      status: f.status ?? null,
      country: f.country ?? null,
      campaign_id: f.campaignId ?? null,
      keyword: f.keyword ?? null,
      number: f.number ?? null,
    },
  };
}

export function createReportService(deps: { db: Db; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());

  async function report(accountId: string, range: ReportRange, query: ReportInput) {
    const filters = toFilters(query);
    const [usage] = await usageByAccount(deps.db, accountId, 'self', range, filters);
    if (!usage) throw new Error(`account ${accountId} vanished during its report`);
    return usageReport(usage, range, filters);
  }

  /** GET /report: the caller's own account, sub-accounts included. */
  async function own(actor: Actor, query: ReportInput) {
    return report(actor.accountId, resolveRange(query, now()), query);
  }

  /** GET /account/{id}/report: a parent reading one sub-account; closed ones too, their history is kept. */
  async function subAccount(actor: Actor, accountId: string, query: ReportInput) {
    const range = resolveRange(query, now());
    await loadManagedAccount(deps.db, actor, accountId, { write: false, includeClosed: true });
    return report(accountId, range, query);
  }

  /** GET /report/group: the caller and every sub-account, closed ones included, with a grand total. */
  async function group(actor: Actor, query: RangeInput): Promise<Static<typeof GroupReport>> {
    assertHierarchyEnabled(actor);
    const range = resolveRange(query, now());
    const usage = await usageByAccount(deps.db, actor.accountId, 'group', range, { direction: 'all' });
    const total = { credits_consumed: 0, inbound: 0, optouts: 0, messages: { total: 0, parts: 0, sent: 0, delivered: 0, failed: 0 } };
    for (const u of usage) {
      total.credits_consumed += u.creditsConsumed;
      total.inbound += u.inbound;
      total.optouts += u.optouts;
      for (const k of Object.keys(total.messages) as Array<keyof MessageCounters>) total.messages[k] += u.messages[k];
    }
    return {
      from: range.from,
      to: range.to,
      accounts: usage.map((u) => ({
        account_id: u.accountId, business_name: u.businessName,
        credits_consumed: u.creditsConsumed, delivery_rate: deliveryRate(u.messages),
        messages: u.messages, inbound: u.inbound, optouts: u.optouts,
      })),
      grand_total: total,
    };
  }

  /** GET /report/daily: the dashboard's chart; every day of the range, zeros included, counters and filters as in /report. */
  async function daily(actor: Actor, query: ReportInput) {
    return dailyOf(actor.accountId, resolveRange(query, now()), query);
  }

  /** GET /account/{id}/report/daily: the same for a sub-account, with the rules of GET /account/{id}/report. */
  async function subAccountDaily(actor: Actor, accountId: string, query: ReportInput) {
    const range = resolveRange(query, now());
    await loadManagedAccount(deps.db, actor, accountId, { write: false, includeClosed: true });
    return dailyOf(accountId, range, query);
  }

  async function dailyOf(accountId: string, range: ReturnType<typeof resolveRange>, query: ReportInput) {
    const found = new Map((await dailyCounts(deps.db, accountId, range, toFilters(query))).map((d) => [d.day, d]));
    const days = [];
    for (let day = range.from; day <= range.to; day = addDays(day, 1)) {
      days.push(found.get(day) ?? { day, total: 0, sent: 0, delivered: 0, failed: 0, inbound: 0 });
    }
    return { from: range.from, to: range.to, days };
  }

  return { own, subAccount, group, daily, subAccountDaily };
}

export type ReportService = ReturnType<typeof createReportService>;
