import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import { contactName, conversation, countUnread, markConversationRead, markRead } from './inbox.repo.ts';

const iso = (d: Date | string) => new Date(d).toISOString();

// Working the inbox: what is unread changes only by these explicit calls, never as a side effect of reading
// (the client libraries poll GET /inbox, and a poll must not clear what a person has not seen).
export function createConversationService(deps: { db: Db }) {
  const { db } = deps;

  async function read(actor: Actor, inboundId: string) {
    const marked = await markRead(db, actor.accountId, inboundId);
    if (marked === null) throw notFound('Inbound message');
    return { ok: true, marked, unread_total: await countUnread(db, actor.accountId) };
  }

  async function readConversation(actor: Actor, number: string) {
    const marked = await markConversationRead(db, actor.accountId, number);
    return { ok: true, marked, unread_total: await countUnread(db, actor.accountId) };
  }

  async function get(actor: Actor, number: string, q: { limit?: number }) {
    const [entries, name, unread] = await Promise.all([
      conversation(db, actor.accountId, number, q.limit ?? 50), contactName(db, actor.accountId, number),
      countUnread(db, actor.accountId, number),
    ]);
    return {
      number, name, unread,
      messages: entries.map((e) => ({
        id: e.id, direction: e.direction, body: e.body, at: iso(e.at), status: e.status, unread: e.unread, service_number: e.service_number,
      })),
    };
  }

  return { read, readConversation, get };
}

export type ConversationService = ReturnType<typeof createConversationService>;
