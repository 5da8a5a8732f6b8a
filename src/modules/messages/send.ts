// The send path as named functions that take their dependencies: `send` (POST /send, the SMPP server, replies)
// and the pieces POST /send-batch (send-batch.ts) and the previews (messages.service.ts) share. A 2xx means the
// message, its debit and its ledger row are committed in one statement (single-send.repo.ts).
import type { Actor } from '../../platform/actor.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { rows } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { sydneyDay, sydneyDayEndExclusive } from '../../platform/sydney-day.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import { generateOptoutCode } from '../optout-link/code.ts';
import { parseSender } from '../senders/sender.ts';
import { allowedSenderQuery } from '../senders/senders.service.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';
import { releaseTime } from '../settings/quiet-hours.ts';
import { trackedBody } from '../links/shorten.ts';
import { invalidNumberMessage, normalisePhone } from '../../common/phone.ts';
import { textSegments } from '../../carrier/carrier.ts';
import { renderMerge, templateHasPlaceholder } from './merge.ts';
import type { Recipient } from './recipients.ts';
import { assertSingleMerge } from './merge-check.ts';
import { countParts, codePointLength, MAX_MESSAGE_CHARS } from './parts.ts';
import { insertSingles, type SendOutcome, type SingleSend } from './single-send.repo.ts';
import { METADATA_LIMITS, type BatchInput, type BatchResult, type InvalidNumber, type SendInput, type SendResult } from './messages.schemas.ts';
import { parseSendAt } from './send-at.ts';

// The inputs and results are the schemas' types (messages.schemas.ts), so the two cannot drift.
export type { BatchInput, BatchResult, InvalidNumber, SendInput, SendResult };

/** Lets a caller (idempotency) write in the same transaction as the send, so both commit or neither does. */
export type Within<T> = (tx: Tx, result: T) => Promise<void>;

/** What only internal callers set on a send. */
export interface SendOptions {
  /** One part of a customer's own long message (the SMPP server writes its fields in `within`). */
  customerPart?: boolean;
  /** It carries its customer's own validity period (the SMPP server writes it in `within`). */
  customerValidity?: boolean;
}

/** What the send path needs: the database, the send settings, and the group-commit batcher of /send (createSingleSends). */
export interface SendDeps {
  db: Db;
  optoutLinkBase: string;
  sharedSender: { AU: string; NZ: string };
  /** After commit, with how many messages were queued: wakes the dispatcher. */
  onQueued: (count: number) => void;
  now: () => Date;
  /** A contact list's recipients with their merge fields; null when the list is not the account's. */
  listRecipients?: ((accountId: string, listId: string) => Promise<Recipient[] | null>) | undefined;
  singles: { submit(request: SingleSend): Promise<SendOutcome> };
}

export const OPTOUT_FIELD = 'OptOutLink';
/** Always available, as the client libraries document it: the sender the message goes from. */
export const SENDING_FIELD = 'SendingNumber';

const senderNotAllowed = () => new AppError('sender_not_allowed', 'That sender is not a registered Sender ID or a number of this account');

/** A message's metadata: the batch's pairs with the recipient's over them; null when there are none. */
export function messageMetadata(shared: Record<string, string> | undefined, own?: Record<string, string>): Record<string, string> | null {
  if (!shared && !own) return null;
  const merged = { ...shared, ...own };
  const count = Object.keys(merged).length;
  if (count === 0) return null;
  if (count > METADATA_LIMITS.pairs) {
    throw new AppError('validation_failed', `metadata has ${count} pairs once merged; the most is ${METADATA_LIMITS.pairs}`, { details: [{ field: 'metadata', message: `at most ${METADATA_LIMITS.pairs} pairs` }] });
  }
  return merged;
}


export function checkBody(body: string): number {
  const length = codePointLength(body);
  if (length === 0 || body.trim() === '') throw new AppError('message_empty', 'The message is empty');
  if (length > MAX_MESSAGE_CHARS) {
    throw new AppError('message_too_long', `The message is ${length} characters; the most is ${MAX_MESSAGE_CHARS}`);
  }
  return countParts(body);
}

/** The daily cap resets at midnight in Sydney: that is when a retry can succeed. */
export function dailyLimitError(now: Date, what: string): AppError {
  const resetsAt = sydneyDayEndExclusive(sydneyDay(now));
  const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  return new AppError('daily_limit_exceeded', what, { retry_after: retryAfter, resets_at: resetsAt.toISOString() });
}

export function assertCanSend(actor: Actor): void {
  if (actor.account.accountStatus !== 'active') {
    throw new AppError('forbidden', `The account is ${actor.account.accountStatus} and cannot send`);
  }
}

/** link_tracking as the send gives it, else the account's default (its settings, read with the key). */
export function tracksLinks(actor: Actor, given: boolean | undefined): boolean {
  return given ?? actor.account.settings.linkTracking;
}

/**
 * How long a /send statement runs before a second may open beside it: above what most statements take when
 * nothing waits on a lock (p50 14–31 ms, p90 24–58 ms under the send bench with this 2-core machine at load ~11;
 * decision 0003), and short enough that a lock wait holds other accounts' sends up by this
 * much once, not for as long as it lasts.
 */
const SECOND_STATEMENT_AFTER_MS = 50;

/**
 * Group commit for /send: concurrent requests share one statement (one round trip, one commit), several of one
 * account too (the statement walks each account's requests in order), so one busy key is not capped at one
 * request per statement. A failed statement is retried request by request, so one bad request cannot fail its
 * neighbours. One statement in flight normally (larger statements: less CPU per request in the API and in
 * PostgreSQL); a second opens beside one that has run SECOND_STATEMENT_AFTER_MS, most likely waiting on an
 * account's row lock (a long /send-batch or credit move of that account), so that wait does not hold up every
 * other account's sends (test/api/send-lock-wait.test.ts).
 */
export function createSingleSends(db: Db) {
  return createBatcher<SingleSend, SendOutcome>({
    maxSize: 100,
    maxConcurrent: 2,
    openAfterMs: SECOND_STATEMENT_AFTER_MS,
    run: async (items) => {
      try {
        return await insertSingles(db, items);
      } catch (err) {
        if (items.length === 1) throw err;
        return Promise.all(items.map((item) => insertSingles(db, [item]).then((r) => r[0]!, (e: Error) => e)));
      }
    },
  });
}

export function linkFor(deps: SendDeps, template: string) {
  if (!templateHasPlaceholder(template, OPTOUT_FIELD)) return null;
  const code = generateOptoutCode();
  return { code, url: `${deps.optoutLinkBase}/${code}` };
}

// Link tracking: the finished body's URLs become short links; parts and credits are counted on the result.
export const tracked = (deps: SendDeps, body: string, track: boolean) => trackedBody(body, deps.optoutLinkBase, track);

/** The body of a single send: {{OptOutLink}} and {{SendingNumber}} filled in, links shortened, then checked and counted. */
export function singleBody(deps: SendDeps, template: string, sendingNumber: string | null, track: boolean) {
  assertSingleMerge(template);
  const link = linkFor(deps, template);
  const extra: Record<string, string> = {};
  if (link) extra[OPTOUT_FIELD] = link.url;
  if (sendingNumber !== null) extra[SENDING_FIELD] = sendingNumber;
  const { body, links } = tracked(deps, Object.keys(extra).length > 0 ? renderMerge(template, undefined, extra) : template, track);
  return { body, parts: checkBody(body), link, links };
}

/**
 * {{SendingNumber}} on a single send: the sender is decided before the body is counted (the sender rule, as
 * the statement applies it), or null when the template does not use the field.
 */
export async function sendingNumberFor(deps: SendDeps, actor: Actor, input: SendInput, country: 'AU' | 'NZ'): Promise<string | null> {
  if (!templateHasPlaceholder(input.message, SENDING_FIELD)) return null;
  return (await resolveSender(deps, actor, input.sender ?? input.from)) ?? deps.sharedSender[country];
}

export async function send(deps: SendDeps, actor: Actor, input: SendInput, within?: Within<SendResult>, options: SendOptions = {}): Promise<SendResult> {
  assertCanSend(actor);
  const home = actor.account.settings.country;
  const phone = normalisePhone(input.to, home);
  if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(input.to, phone.reason));
  const given = parseSender(input.sender ?? input.from, home);
  if (given === 'invalid') throw senderNotAllowed();
  const sendingNumber = await sendingNumberFor(deps, actor, input, phone.country);
  // The body names its sender, so the statement must send from exactly that one (it re-checks the account may).
  const named = sendingNumber !== null && sendingNumber !== deps.sharedSender[phone.country] ? parseSender(sendingNumber, home) : null;
  const requested = named && named !== 'invalid' ? named : given;
  const { body, parts, link, links } = singleBody(deps, input.message, sendingNumber, tracksLinks(actor, input.link_tracking));
  const scheduledAt = releaseTime({ sendAt: scheduleOf(deps, input.send_at), now: deps.now(), urgent: input.urgent, country: phone.country, settings: actor.account.settings });
  const request: SingleSend = {
    id: uuidv7(), ledgerId: uuidv7(), campaignId: uuidv7(), accountId: actor.accountId,
    senderParentId: actor.account.inheritParentSenders ? actor.account.parentId : null,
    optoutExempt: actor.account.optoutExempt, recipient: phone.e164, country: phone.country, body, parts,
    optoutCode: link?.code ?? null, campaignName: input.campaign ?? null, metadata: messageMetadata(input.metadata), requestedSender: requested,
    sharedSender: deps.sharedSender[phone.country], today: sydneyDay(deps.now()), scheduledAt, links,
    ...(options.customerPart ? { customerPart: true } : {}),
    ...(options.customerValidity ? { customerValidity: true } : {}),
  };
  const toResult = (outcome: SendOutcome): SendResult => {
    if (!outcome.senderOk) throw senderNotAllowed();
    if (outcome.optedOut) throw new AppError('recipient_opted_out', `${phone.e164} has opted out of messages from this account`);
    if (outcome.dailyExceeded) throw dailyLimitError(deps.now(), 'The account has reached its daily send limit');
    if (!outcome.ok || outcome.creditsAfter === null) throw insufficientCredits(parts, outcome.creditsBefore);
    return {
      message_id: request.id, credits_used: parts, credits_remaining: outcome.creditsAfter, recipient: phone.e164, segments: textSegments(body),
    };
  };
  const result = within
    ? await deps.db.transaction(async (tx) => {
      const [outcome] = await insertSingles(tx, [request]);
      const res = toResult(outcome!);
      await within(tx, res);
      return res;
    })
    : toResult(await deps.singles.submit(request));
  deps.onQueued(1);
  return result;
}

/** send_at as the instant the statement stores, or null to send now; 400 invalid_send_at when refused. */
export function scheduleOf(deps: SendDeps, sendAt: string | undefined): string | null {
  if (sendAt === undefined) return null;
  const parsed = parseSendAt(sendAt, deps.now());
  if (!parsed.ok) throw new AppError('invalid_send_at', parsed.reason);
  return parsed.at.toISOString();
}

/** The sender a request may use: its registered spelling, null for the default; 400 when not allowed. */
export async function resolveSender(deps: SendDeps, actor: Actor, given: string | undefined): Promise<string | null> {
  const requested = parseSender(given, actor.account.settings.country);
  if (requested === 'invalid') throw senderNotAllowed();
  const [allowed] = await rows<{ sender: string | null }>(deps.db, allowedSenderQuery(actor, requested));
  if (requested !== null && !allowed?.sender) throw senderNotAllowed();
  return allowed?.sender ?? null;
}
