import type { Db } from '../../platform/db/client.ts';
import { applyReset, findReset, insertReset, resetCandidates } from './password-reset.repo.ts';
import { AppError } from '../../platform/errors.ts';
import { record } from '../../platform/audit/record.ts';
import type { Mailer } from '../../platform/mail/mailer.ts';
import type { FailureCounter } from '../../platform/http/failure-counter.ts';
import { hashToken, newToken } from './tokens.ts';
import { passwordMessages, passwordProblem } from './password-policy.ts';
import { hashPassword } from './argon.ts';
import { resetMail } from '../../platform/mail/mails.ts';

const RESET_MINUTES = 60;
/** Reset mails one email may be sent per hour: "forgot password" cannot be used to flood someone's inbox. */
const MAILS_PER_HOUR = 3;

const invalid = () => new AppError('reset_invalid', 'This reset link is not valid any more: ask for a new one');

/**
 * A forgotten password: a single-use link by email, valid for an hour, stored only as its hash. The request
 * answers the same whether or not the email is known. A reset sets the password, ends every session of the
 * user (whoever knew the old password is signed out) and leaves a second factor enrolled: the next sign-in still
 * asks for the code.
 */
export function createPasswordResetService(deps: { db: Db; publicUrl: string; mail: Mailer; failures: FailureCounter }) {
  const { db } = deps;

  async function forgot(emailGiven: string): Promise<void> {
    const email = emailGiven.trim().toLowerCase();
    const users = await resetCandidates(db, email);
    if (users.length === 0) return;
    const sent = await deps.failures.add(`reset-mail:${email}`, 3_600_000, 'fixed');
    if (sent.count > MAILS_PER_HOUR) return;
    await db.transaction(async (tx) => {
      for (const user of users) {
        const token = newToken();
        await insertReset(tx, hashToken(token), user.id, RESET_MINUTES);
        await deps.mail.queue(tx, resetMail(user.email, user.business_name, `${deps.publicUrl}/app/reset#${token}`, user.account_id));
      }
    });
    deps.mail.kick();
  }

  async function reset(token: string, password: string, address: string | null): Promise<{ ok: true }> {
    const tokenHash = hashToken(token);
    const found = await findReset(db, tokenHash);
    if (!found) throw invalid();
    const problem = passwordProblem(password, found.email);
    if (problem) throw new AppError('weak_password', passwordMessages[problem], { details: [{ field: 'password', message: passwordMessages[problem] }] });
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      // Spent in the same transaction that sets the password: a link works once, even when used twice at once.
      if (!(await applyReset(tx, tokenHash, found.user_id, passwordHash))) throw invalid();
      await record(tx, {
        accountId: found.account_id, actor: { type: 'user', id: found.user_id, label: found.email, address },
        action: 'user.password_reset', target: { type: 'user', id: found.user_id },
      });
    });
    return { ok: true };
  }

  return { forgot, reset };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
