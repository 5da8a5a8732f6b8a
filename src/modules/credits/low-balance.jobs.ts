import type { Db } from '../../platform/db/client.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import { startPeriodic } from '../../platform/jobs/periodic.ts';
import { lowBalanceMail } from '../../platform/mail/mails.ts';
import { takeLowBalanceNotices } from './low-balance.repo.ts';

/** How often waiting notices are turned into mail: a notice is about money running out, not a message to deliver. */
const EVERY_MS = 5_000;
const PER_RUN = 100;

/**
 * The low-balance email (settings.low_balance_threshold, decision 0075): the trigger on accounts records each
 * debit that crossed the threshold in the debit's transaction; this job, on the worker loop, queues one mail per
 * notice to the account's owner in the transaction that takes it, then kicks the mailer (a workers process
 * answers no request, so nothing else would).
 */
export function startLowBalanceNotices(deps: { db: Db; mail: Mailer; logger: Logger }): () => Promise<void> {
  return startPeriodic({
    name: 'low-balance notices', everyMs: EVERY_MS, logger: deps.logger,
    run: async () => {
      for (;;) {
        const taken = await deps.db.transaction(async (tx) => {
          const notices = await takeLowBalanceNotices(tx, PER_RUN);
          for (const n of notices) {
            if (n.to === null) {
              deps.logger.info({ account: n.accountId, balance: n.balance }, 'low balance: the account has no owner to email');
              continue;
            }
            await deps.mail.queue(tx, lowBalanceMail(n.to, n.businessName, n.balance, n.threshold, n.accountId));
          }
          return notices.length;
        });
        if (taken > 0) deps.mail.kick();
        if (taken < PER_RUN) return;
      }
    },
  });
}
