import { sql } from 'drizzle-orm';
import { rows, type Db, type Executor } from '../db/client.ts';
import { uuidv7 } from '../ids.ts';
import type { Logger } from '../logger.ts';

/** What Tasman emails: an invitation, a password reset, a low-balance notice. */
export type MailKind = 'invite' | 'password_reset' | 'low_balance';

export interface Mail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  /** The link the mail carries (invite, reset): the log line names it when there is no SMTP server. */
  link?: string;
  accountId?: string | null;
}

/** A sent mail's body is dropped: the links in it are secrets, and the recipient has them. */
const MAX_ATTEMPTS = 5;
/**
 * Mail is sent only within this many hours of being written. Older mail waited while no SMTP server was configured
 * (the operator could read it in the outbox, the log carried its link): configuring SMTP_URL later must not send a
 * burst of stale invitations and expired reset links. It stays in the outbox, unsent.
 */
const SEND_WITHIN_HOURS = 24;

/**
 * Mail goes through a transactional outbox: `queue` writes the message in the caller's transaction, so a mail
 * exists exactly when the change that sends it committed. With SMTP_URL, `kick` (called after the commit) sends
 * what waits through nodemailer, and a sent mail keeps only its envelope. Without it (the default), the outbox
 * is where mail stays: the operator reads it (GET /admin/outbox) and the log line carries the link, so every flow
 * works on a fresh machine.
 */
export function createMailer(deps: { db: Db; smtpUrl: string | null; from: string; logger: Logger }) {
  const { db } = deps;
  const transport = deps.smtpUrl
    ? import('nodemailer').then((m) => m.default.createTransport(deps.smtpUrl!))
    : null;
  let sending: Promise<void> | null = null;
  // Set by queue: a kick with nothing queued in this process since the last run costs nothing (no query).
  let queued = true;

  async function queue(tx: Executor, mail: Mail): Promise<void> {
    await tx.execute(sql`
      insert into email_outbox (id, account_id, kind, to_address, subject, body)
      values (${uuidv7()}, ${mail.accountId ?? null}, ${mail.kind}, ${mail.to}, ${mail.subject}, ${mail.text})`);
    queued = true;
    if (!transport) deps.logger.info({ kind: mail.kind, to: mail.to, link: mail.link }, 'email kept in the outbox (no SMTP_URL): GET /admin/outbox');
  }

  /** Sends every waiting mail (one run at a time per process; rows claimed with SKIP LOCKED across processes). */
  async function sendWaiting(): Promise<void> {
    if (!transport) return;
    const mailer = await transport;
    for (;;) {
      const sent = await db.transaction(async (tx) => {
        const [row] = await rows<{ id: string; to_address: string; subject: string; body: string }>(tx, sql`
          select id, to_address, subject, body from email_outbox
          where sent_at is null and attempts < ${MAX_ATTEMPTS} and body is not null
            and created_at > now() - make_interval(hours => ${SEND_WITHIN_HOURS})
          order by id limit 1 for update skip locked`);
        if (!row) return false;
        try {
          await mailer.sendMail({ from: deps.from, to: row.to_address, subject: row.subject, text: row.body });
          await tx.execute(sql`update email_outbox set sent_at = now(), body = null, attempts = attempts + 1, last_error = null where id = ${row.id}`);
        } catch (err) {
          deps.logger.warn({ err: (err as Error).message, to: row.to_address }, 'email not sent: SMTP refused or unreachable');
          await tx.execute(sql`update email_outbox set attempts = attempts + 1, last_error = ${(err as Error).message.slice(0, 500)} where id = ${row.id}`);
          return 'failed';
        }
        return true;
      });
      if (sent !== true) return;
    }
  }

  /**
   * After a commit that queued mail: sends it in the background (errors are logged, the row stays waiting for the
   * next kick). The app kicks after every answered write; the first kick of a process also sends what an earlier
   * process left waiting.
   */
  function kick(): void {
    if (!transport || sending || !queued) return;
    queued = false;
    sending = sendWaiting().catch((err: Error) => deps.logger.warn({ err: err.message }, 'email outbox send failed')).finally(() => { sending = null; });
  }

  /** Whether mail leaves by SMTP (else it stays in the outbox for the operator). */
  const sends = transport !== null;

  /** For shutdown and tests: waits for the sending run in progress. */
  const idle = async () => { await sending; };

  /** The outbox for the operator, newest first. */
  async function outbox(query: { to?: string | undefined; limit?: number | undefined }) {
    const found = await rows<{
      id: string; account_id: string | null; kind: string; to_address: string; subject: string; body: string | null;
      created_at: Date | string; sent_at: Date | string | null; attempts: number; last_error: string | null;
    }>(db, sql`
      select id, account_id, kind, to_address, subject, body, created_at, sent_at, attempts, last_error from email_outbox
      where ${query.to === undefined ? sql`true` : sql`lower(to_address) = ${query.to.trim().toLowerCase()}`}
      order by id desc limit ${query.limit ?? 50}`);
    return found.map((m) => ({
      id: m.id, account_id: m.account_id, kind: m.kind, to: m.to_address, subject: m.subject, body: m.body,
      created_at: new Date(m.created_at).toISOString(), sent_at: m.sent_at ? new Date(m.sent_at).toISOString() : null,
      attempts: m.attempts, last_error: m.last_error,
    }));
  }

  return { queue, kick, sends, idle, outbox };
}

export type Mailer = ReturnType<typeof createMailer>;
