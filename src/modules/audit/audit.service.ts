import type { Db } from '../../platform/db/client.ts';
import type { Actor } from '../../platform/actor.ts';
import { AppError } from '../../platform/errors.ts';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor.ts';
import { loadManagedAccount } from '../accounts/access.ts';
import { auditActor, type AuditActor, type AuditEntry } from '../../platform/audit/entry.ts';
import { record } from '../../platform/audit/record.ts';
import { listEntries, type AuditFilter, type AuditRow } from './audit.repo.ts';
import { createRefusalCap } from './refusal-cap.ts';

export interface AuditQuery extends AuditFilter {
  account_id?: string;
  limit?: number;
  cursor?: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

const view = (r: AuditRow) => ({
  id: r.id,
  created_at: iso(r.created_at),
  account_id: r.account_id,
  actor: { type: r.actor_type, id: r.actor_id, label: r.actor_label },
  source_address: r.source_address,
  action: r.action,
  target: r.target_type === null ? null : { type: r.target_type, id: r.target_id },
  outcome: r.outcome,
  reason: r.reason,
  before: r.before,
  after: r.after,
});

export const AUDIT_PAGE_DEFAULT = 50;

function dateOrThrow(value: string | undefined, field: string): void {
  if (value !== undefined && Number.isNaN(Date.parse(value))) {
    throw new AppError('validation_failed', `${field} is not a date`, { details: [{ field, message: 'an ISO 8601 date or time' }] });
  }
}

export function createAuditService(deps: { db: Db; refusalsPerMinute?: number; now?: () => Date }) {
  const { db } = deps;
  const cap = createRefusalCap({ perMinute: deps.refusalsPerMinute, now: deps.now });

  async function page(accountId: string | null, q: AuditQuery) {
    dateOrThrow(q.from, 'from');
    dateOrThrow(q.to, 'to');
    const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
    if (q.cursor !== undefined && !after) {
      throw new AppError('validation_failed', 'cursor is not a next_cursor this service returned', { details: [{ field: 'cursor', message: 'invalid cursor' }] });
    }
    const limit = q.limit ?? AUDIT_PAGE_DEFAULT;
    const found = await listEntries(db, accountId, q, { limit, after });
    const entries = found.slice(0, limit);
    const last = entries[entries.length - 1];
    return {
      entries: entries.map(view),
      next_cursor: found.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id }) : null,
    };
  }

  /**
   * A refused attempt (403 permission_denied or insufficient_scope, a failed sign-in): no transaction exists for
   * a refusal, so it is written on its own, and at most `refusalsPerMinute` per actor per minute per process
   * (the first one over the cap writes one `audit.refusals_capped` entry instead), so a flood of refusals
   * cannot flood the log. Never throws: a refusal is answered whether or not its entry could be written.
   */
  async function refused(entry: Omit<AuditEntry, 'outcome'> & { reason: string }): Promise<void> {
    const actor: AuditActor = auditActor(entry.actor);
    const verdict = cap.take(`${actor.type}:${actor.id ?? actor.address ?? ''}`);
    if (verdict === 'drop') return;
    const written: AuditEntry = verdict === 'record'
      ? { ...entry, actor, outcome: 'refused' }
      : { accountId: entry.accountId, actor, action: 'audit.refusals_capped', outcome: 'refused', reason: entry.reason, after: { per_minute: cap.perMinute } };
    await record(db, written).catch(() => undefined);
  }

  return {
    refused,

    /** A request refused in auth.ts or by a service (OnRefused): `access.refused`, naming the route. */
    refusedRequest: (actor: Actor, r: { code: string; method: string; route: string }) => refused({
      accountId: actor.accountId, actor, action: 'access.refused', target: { type: 'route', id: `${r.method} ${r.route}` }, reason: r.code,
    }),

    /**
     * GET /audit: the caller's own account's entries, or (`account_id`) a sub-account's that the caller manages:
     * the parent/sub-account rule of accounts/access.ts, which answers 404 for anything else.
     */
    async list(actor: Actor, q: AuditQuery) {
      let accountId = actor.accountId;
      if (q.account_id !== undefined && q.account_id !== actor.accountId) {
        // write: a parent reads the log of a sub-account only while it manages it (managed_by_parent).
        accountId = (await loadManagedAccount(db, actor, q.account_id, { write: true, includeClosed: true })).id;
      }
      return page(accountId, q);
    },

    /** GET /admin/audit: every account's entries and the operator-wide ones, or one account's (`account_id`). */
    listAll: (q: AuditQuery) => page(q.account_id ?? null, q),
  };
}

export type AuditService = ReturnType<typeof createAuditService>;

// Retention deletes old entries in batches.
export { deleteEntriesBefore } from './audit.repo.ts';
