import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { record } from '../../platform/audit/record.ts';
import type { AuditActor } from '../../platform/audit/entry.ts';
import { checkedAbn } from '../../common/abn.ts';
import { parseSenderId } from './sender.ts';
import { findSenderId, insertSenderId } from './senders.repo.ts';
import { accountRequests, countToReview, insertRequest, lockRequest, markReviewed, requestsToReview, type RequestStatus, type SenderRequestRow } from './sender-requests.repo.ts';

// An account asks for a Sender ID; the operator checks the national register and approves it, which registers it to
// the account exactly as POST /admin/sender-ids with account_id does (decisions 0017, 0086), or rejects it with a reason.
// Until then the request grants nothing: only registrations are read by the send path.

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function view(r: SenderRequestRow) {
  return {
    id: r.id, sender_id: r.sender_id, abn: r.abn, use_description: r.use_description, status: r.status, reason: r.reason,
    created_at: iso(r.created_at)!, reviewed_at: iso(r.reviewed_at),
  };
}

const operatorView = (r: SenderRequestRow) => ({ ...view(r), account_id: r.account_id, business_name: r.business_name ?? '', registration_id: r.registration_id });

export function createSenderRequestService(deps: { db: Db }) {
  const { db } = deps;

  /** POST /sender-ids: a request in the caller's account; 409 while one for the same Sender ID is open. */
  async function request(actor: Actor, input: { sender_id: string; abn: string; use_description: string }) {
    const senderId = parseSenderId(input.sender_id);
    const abn = checkedAbn(input.abn);
    const useDescription = input.use_description.trim();
    if (useDescription === '') throw new AppError('validation_failed', 'Say what the Sender ID is for', { details: [{ field: 'use_description', message: 'must not be blank' }] });
    const row = await db.transaction(async (tx) => {
      const made = await insertRequest(tx, actor.accountId, { senderId, abn, useDescription });
      if (made) {
        await record(tx, {
          accountId: actor.accountId, actor, action: 'sender_id.requested', target: { type: 'sender_id_request', id: made.id },
          after: { sender_id: senderId, abn, use_description: useDescription },
        });
      }
      return made;
    });
    if (!row) throw new AppError('conflict', `A request for ${senderId} is already waiting for review`);
    return view(row);
  }

  /** GET /sender-ids: the account's requests, newest first, with their status. */
  async function list(actor: Actor) {
    return { requests: (await accountRequests(db, actor.accountId)).map(view) };
  }

  /** The operator's queue (default: waiting for review), oldest first. */
  async function toReview(query: { status?: RequestStatus | 'all'; limit: number; offset: number }) {
    const status = query.status === 'all' ? null : query.status ?? 'requested';
    const [found, total] = await Promise.all([requestsToReview(db, { status, limit: query.limit, offset: query.offset }), countToReview(db, status)]);
    return { requests: found.map(operatorView), total, limit: query.limit, offset: query.offset };
  }

  /** Approves or rejects a request still waiting; 404 for none, 409 once reviewed. */
  async function review(by: AuditActor, id: string, decision: { approve: true } | { approve: false; reason: string }) {
    const reason = decision.approve ? null : decision.reason.trim();
    if (reason === '') throw new AppError('validation_failed', 'Give the reason for the rejection', { details: [{ field: 'reason', message: 'must not be blank' }] });
    const row = await db.transaction(async (tx) => {
      const found = await lockRequest(tx, id);
      if (!found) throw notFound('Sender ID request');
      if (found.status !== 'requested') throw new AppError('conflict', `That request was ${found.status} already`);
      let registrationId: string | null = null;
      if (decision.approve) {
        const registration = { senderId: found.sender_id, abn: found.abn, accountId: found.account_id };
        registrationId = (await insertSenderId(tx, registration))?.id ?? await findSenderId(tx, registration);
      }
      const done = await markReviewed(tx, id, { status: decision.approve ? 'approved' : 'rejected', reason, registrationId });
      await record(tx, {
        accountId: found.account_id, actor: by, action: decision.approve ? 'sender_id.approved' : 'sender_id.rejected',
        target: { type: 'sender_id_request', id }, before: { status: 'requested' },
        after: { status: done.status, sender_id: done.sender_id, abn: done.abn, ...(reason === null ? { registration_id: registrationId } : { reason }) },
      });
      return done;
    });
    return operatorView(row);
  }

  return { request, list, toReview, review };
}

export type SenderRequestService = ReturnType<typeof createSenderRequestService>;
