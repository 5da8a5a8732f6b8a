import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { decodeCursor, E164_KEY, encodeCursor } from '../../platform/http/keyset-cursor.ts';
import { invalidNumberMessage, normalisePhone } from '../../common/phone.ts';
import { auditCsv } from './audit-csv.ts';
import { record } from '../../platform/audit/record.ts';
import { addOptout, listOptouts, optoutEvents, removeOptout, type OptoutRow } from './optouts.repo.ts';

export interface OptoutListQuery {
  limit?: number;
  cursor?: string;
}

const iso = (d: Date | string) => new Date(d).toISOString();

const toItem = (o: OptoutRow) => ({
  number: o.number,
  created_at: iso(o.created_at),
  source: o.source,
  inbound_message_id: o.inbound_message_id,
  inbound_body: o.inbound_body,
  message_id: o.message_id,
  contact_name: o.contact_name,
});

function e164(actor: Actor, number: string): string {
  const phone = normalisePhone(number, actor.account.settings.country);
  if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(number, phone.reason));
  return phone.e164;
}

/** Who changed the list by hand: a signed-in user (its id), or an API key (its id). */
const byHand = (actor: Actor) => ({ actorUserId: actor.user?.id ?? null, actorKeyId: actor.user ? null : actor.keyId });

export function createOptoutService(deps: { db: Db }) {
  const { db } = deps;
  return {
    /**
     * The caller's own opt-out list, newest first. Without `limit` or `cursor` the whole list, as the interface
     * document has it; with them a page and `next_cursor`.
     */
    async list(actor: Actor, q: OptoutListQuery = {}) {
      const paged = q.limit !== undefined || q.cursor !== undefined;
      const limit = paged ? q.limit ?? 100 : null;
      const after = q.cursor === undefined ? null : decodeCursor(q.cursor, E164_KEY);
      if (q.cursor !== undefined && !after) {
        throw new AppError('validation_failed', 'cursor is not a next_cursor this service returned', { details: [{ field: 'cursor', message: 'invalid cursor' }] });
      }
      const found = await listOptouts(db, actor.accountId, { limit, after });
      const page = limit === null ? found : found.slice(0, limit);
      const last = page[page.length - 1];
      return {
        optouts: page.map(toItem),
        next_cursor: limit !== null && found.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.number }) : null,
      };
    },

    /** Adds a number (source api). `created` is false when it was already listed (its first record stands). */
    async add(actor: Actor, number: string) {
      const normalised = e164(actor, number);
      const created = await db.transaction(async (tx) => {
        const added = await addOptout(tx, actor.accountId, normalised, 'api', byHand(actor));
        if (added) {
          await record(tx, { accountId: actor.accountId, actor, action: 'optout.added', target: { type: 'optout', id: normalised }, after: { number: normalised, source: 'api' } });
        }
        return added;
      });
      const [row] = await listOptouts(db, actor.accountId, { limit: 1, after: null, number: normalised });
      return { created, optout: toItem(row!) };
    },

    /**
     * Removes a number (a re-subscription: the route needs `manage`): the person may be messaged again, so the audit
     * log records who did it, and the opt-out list's own events keep both the opt-out and this removal with who
     * made it. 404 when it is not listed.
     */
    async remove(actor: Actor, number: string) {
      const phone = normalisePhone(number, actor.account.settings.country);
      if (!phone.ok) throw notFound('Opt-out');
      await db.transaction(async (tx) => {
        if (!(await removeOptout(tx, actor.accountId, phone.e164, 'api', byHand(actor)))) throw notFound('Opt-out');
        await record(tx, { accountId: actor.accountId, actor, action: 'optout.removed', target: { type: 'optout', id: phone.e164 }, before: { number: phone.e164 } });
      });
      return { ok: true as const };
    },

    /** Every opt-out and opt-in of the account, oldest first, as CSV. */
    async exportCsv(actor: Actor): Promise<string> {
      const events = await optoutEvents(db, actor.accountId);
      return auditCsv(events.map((e) => ({
        number: e.number, action: e.action, source: e.source, raw_text: e.raw_text, received_at: iso(e.created_at),
        inbound_message_id: e.inbound_message_id, message_id: e.message_id,
      })));
    },
  };
}

export type OptoutService = ReturnType<typeof createOptoutService>;

// Opt-outs recorded by other modules inside their own transaction (a STOP reply, an opt-out link).
export { addOptout, removeOptout } from './optouts.repo.ts';
