import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { notFound } from '../../platform/errors.ts';
import type { MessageService, Within } from './messages.service.ts';
import type { SendResult } from './messages.schemas.ts';
import { findInbound, holderOf } from '../inbox/inbox.service.ts';

// Replying to an inbound message is an ordinary send (same checks, same charge), addressed for the caller: to the
// person who wrote, from the dedicated number they wrote to when the account holds it. A reply that came in on a
// shared number goes out with the account's default sender, as any send without `sender` would.
export function createReplyService(deps: { db: Db; messages: MessageService }) {
  async function reply(
    actor: Actor, inboundId: string, input: { message: string; campaign?: string }, within?: Within<SendResult>,
  ): Promise<SendResult> {
    const inbound = await findInbound(deps.db, actor.accountId, inboundId);
    if (!inbound) throw notFound('Inbound message');
    const ownNumber = (await holderOf(deps.db, inbound.to)) === actor.accountId;
    return deps.messages.send(actor, { to: inbound.from, message: input.message, campaign: input.campaign, ...(ownNumber ? { sender: inbound.to } : {}) }, within);
  }
  return { reply };
}

export type ReplyService = ReturnType<typeof createReplyService>;
