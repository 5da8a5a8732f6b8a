import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';
import { POSITION_FORMAT, type ListPosition } from '../../platform/http/keyset-cursor.ts';
import type { AuditActorType, AuditOutcome } from '../../platform/audit/entry.ts';

export interface AuditFilter {
  /** a user or key id, an email or a key prefix */
  actor?: string;
  /** an action (`key.created`) or its first part (`key`: every key.* action) */
  action?: string;
  /** a target id, or a target type (`api_key`) */
  target?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

export interface AuditRow {
  id: string;
  created_at: Date | string;
  position: string;
  account_id: string | null;
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_label: string | null;
  source_address: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: AuditOutcome;
  reason: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

function conditions(f: AuditFilter): SQL[] {
  const where: SQL[] = [];
  if (f.actor !== undefined) where.push(sql`(a.actor_id = ${f.actor} or lower(a.actor_label) = lower(${f.actor}))`);
  if (f.action !== undefined) where.push(sql`(a.action = ${f.action} or a.action like ${`${f.action.replace(/[\\%_]/g, '\\$&')}.%`})`);
  if (f.target !== undefined) where.push(sql`(a.target_id = ${f.target} or a.target_type = ${f.target})`);
  if (f.outcome !== undefined) where.push(sql`a.outcome = ${f.outcome}`);
  if (f.from !== undefined) where.push(sql`a.created_at >= ${f.from}::timestamptz`);
  if (f.to !== undefined) where.push(sql`a.created_at < ${f.to}::timestamptz`);
  return where;
}

/**
 * Entries newest first on (created_at, id), a page after `after`. `accountId` null is every account's and the
 * operator-wide entries (the operator's view); otherwise one account's.
 */
export async function listEntries(
  exec: Executor, accountId: string | null, filter: AuditFilter, page: { limit: number; after: ListPosition | null },
): Promise<AuditRow[]> {
  const where = conditions(filter);
  if (accountId !== null) where.unshift(sql`a.account_id = ${accountId}`);
  if (page.after) {
    where.push(sql`a.created_at <= ${page.after.createdAt}::timestamptz`);
    where.push(sql`(a.created_at < ${page.after.createdAt}::timestamptz or a.id < ${page.after.id}::uuid)`);
  }
  return rows<AuditRow>(exec, sql`
    select a.id, a.created_at, a.account_id, a.actor_type, a.actor_id, a.actor_label, a.source_address, a.action,
           a.target_type, a.target_id, a.outcome, a.reason, a.before, a.after,
           to_char(a.created_at at time zone 'UTC', ${sql.raw(`'${POSITION_FORMAT}'`)}) as position
    from audit_log a
    ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
    order by a.created_at desc, a.id desc
    limit ${page.limit + 1}`);
}

/**
 * Retention: one bounded batch of entries older than the cutoff, deleted (the only statement that deletes from
 * audit_log). Cross-tenant maintenance, like the other retention statements.
 */
export async function deleteEntriesBefore(exec: Executor, b: { cutoff: Date; limit: number }): Promise<number> {
  const [row] = await rows<{ n: unknown }>(exec, sql`
    with batch as (
      select id from audit_log where created_at < ${b.cutoff.toISOString()}::timestamptz
      order by created_at limit ${b.limit}
      for update skip locked
    ), done as (
      delete from audit_log a using batch where a.id = batch.id returning 1
    )
    select count(*) as n from done`);
  return Number(row?.n ?? 0);
}
