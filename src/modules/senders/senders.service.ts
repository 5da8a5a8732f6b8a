import type { Actor } from '../../platform/actor.ts';
import type { Db } from '../../platform/db/client.ts';
import { listUsableSenderIds } from './senders.repo.ts';

// The Sender IDs an account may put in `sender`, and with inherit_parent_senders its parent's: the rule
// senderExpression checks, listed.
export function createSenderService(deps: { db: Db }) {
  async function list(actor: Actor) {
    const parentId = actor.account.inheritParentSenders ? actor.account.parentId : null;
    return { sender_ids: await listUsableSenderIds(deps.db, actor.accountId, parentId) };
  }
  return { list };
}

export type SenderService = ReturnType<typeof createSenderService>;

// The send path checks a requested sender in its own query.
export { allowedSenderQuery } from './senders.repo.ts';

// The operator registers Sender IDs (admin) inside its own transaction, as approving a request does here.
export { insertSenderId } from './senders.repo.ts';
