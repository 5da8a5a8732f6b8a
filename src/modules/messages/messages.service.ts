import type { Actor } from '../../platform/actor.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { UUID_PATTERN, uuidv7 } from '../../platform/ids.ts';
import { sydneyDay, sydneyDayEndExclusive } from '../../platform/sydney-day.ts';
import { generateOptoutCode } from '../optout-link/code.ts';
import { parseSender } from '../senders/sender.ts';
import { allowedSenderQuery } from '../senders/senders.service.ts';
import { rows } from '../../platform/db/client.ts';
import { renderMerge, templateHasPlaceholder } from './merge.ts';
import { readRecipient, type BatchRecipient, type Recipient } from './recipients.ts';
import { assertNoneMissing, assertSingleMerge, batchMerge, type MissingMergeFields } from './merge-check.ts';
import { countParts, codePointLength, MAX_MESSAGE_CHARS } from './parts.ts';
import { invalidNumberMessage, normalisePhone } from '../../common/phone.ts';
import { findMessage, findMessageIdByIdempotencyKey, findOptedOut, insertBatch, type BatchItem } from './messages.repo.ts';
import { insertSingles, type SendOutcome, type SingleSend } from './single-send.repo.ts';
import { createBatcher } from '../../platform/jobs/batcher.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';
import { toMessageView, type MessageView } from './message-view.ts';
import { textEncoding, textSegments } from '../../carrier/carrier.ts';
import { METADATA_LIMITS } from './messages.schemas.ts';
import { cancelScheduled, messageStatus } from '../scheduling/scheduling.service.ts';
import { parseSendAt } from './send-at.ts';
import { releaseTime } from '../settings/quiet-hours.ts';
import { listAccountMessages, type MessageListQuery } from './message-list.service.ts';
import { exportAccountMessages, type MessageExportQuery } from './message-export.service.ts';
import { trackedBody } from '../links/shorten.ts';
import { insertLinks, type LinkService, type LinkView } from '../links/links.service.ts';

export interface SendInput {
  to: string;
  message: string;
  sender?: string;
  from?: string;
  campaign?: string;
  metadata?: Record<string, string>;
  send_at?: string;
  /** bypass the account's quiet hours */
  urgent?: boolean;
  link_tracking?: boolean;
}

export interface SendResult {
  message_id: string;
  credits_used: number;
  credits_remaining: number;
  /** the E.164 number the message goes to: how Tasman read `to` */
  recipient: string;
  /** SMS segments the carrier will carry (credits follow the interface document's rule instead) */
  segments: number;
}

/** A number a batch could not send to, as given, and why. */
export interface InvalidNumber {
  number: string;
  reason: string;
}


export interface BatchInput {
  recipients?: BatchRecipient[];
  /** a contact list of the account: its contacts are recipients too, their fields merge data */
  list_id?: string;
  message: string;
  sender?: string;
  from?: string;
  campaign?: string;
  metadata?: Record<string, string>;
  send_at?: string;
  /** bypass the account's quiet hours */
  urgent?: boolean;
  link_tracking?: boolean;
  /** refuse the batch when a recipient lacks a field the text uses, instead of sending the empty string */
  strict_merge_fields?: boolean;
}

export interface BatchResult {
  campaign_id: string;
  recipients_queued: number;
  invalid_numbers: string[];
  invalid_details: InvalidNumber[];
  opted_out_count: number;
  duplicates_removed: number;
  credits_used: number;
  credits_remaining: number;
  segments: number;
}

export interface PreviewRecipient {
  phone: string;
  text: string;
  encoding: 'gsm7' | 'ucs2';
  parts: number;
  credits: number;
  segments: number;
}

export interface BatchPreview {
  recipients: PreviewRecipient[];
  total_credits: number;
  total_segments: number;
  invalid_numbers: string[];
  invalid_details: InvalidNumber[];
  opted_out_count: number;
  duplicates_removed: number;
  /** recipients that lack a field the text uses (it goes out as the empty string) */
  missing_merge_fields: MissingMergeFields[];
}

// Credits are parts (the interface document's rule); the encoding is what the carrier link will use.
const previewOf = (phone: string, text: string, parts: number): PreviewRecipient =>
  ({ phone, text, encoding: textEncoding(text), parts, credits: parts, segments: textSegments(text) });

/** Lets a caller (idempotency) write in the same transaction as the send, so both commit or neither does. */
export type Within<T> = (tx: Tx, result: T) => Promise<void>;

/** What only internal callers set on a send. */
export interface SendOptions {
  /** One part of a customer's own long message (the SMPP server writes its fields in `within`). */
  customerPart?: boolean;
}

export interface MessageServiceDeps {
  db: Db;
  optoutLinkBase: string;
  /** The links of a message, for GET /message/{id}. */
  links: Pick<LinkService, 'ofMessage'>;
  sharedSender: { AU: string; NZ: string };
  /** Wakes the dispatcher once new messages are committed. */
  /** After commit, with how many messages were queued. */
  onQueued: (count: number) => void;
  now?: () => Date;
  /** A contact list's recipients with their merge fields; null when the list is not the account's. */
  listRecipients?: (accountId: string, listId: string) => Promise<Recipient[] | null>;
}

const OPTOUT_FIELD = 'OptOutLink';
/** Always available, as the client libraries document it: the sender the message goes from. */
const SENDING_FIELD = 'SendingNumber';

const senderNotAllowed = () => new AppError('sender_not_allowed', 'That sender is not a registered Sender ID or a number of this account');

/** A message's metadata: the batch's pairs with the recipient's over them; null when there are none. */
function messageMetadata(shared: Record<string, string> | undefined, own?: Record<string, string>): Record<string, string> | null {
  if (!shared && !own) return null;
  const merged = { ...shared, ...own };
  const count = Object.keys(merged).length;
  if (count === 0) return null;
  if (count > METADATA_LIMITS.pairs) {
    throw new AppError('validation_failed', `metadata has ${count} pairs once merged; the most is ${METADATA_LIMITS.pairs}`, { details: [{ field: 'metadata', message: `at most ${METADATA_LIMITS.pairs} pairs` }] });
  }
  return merged;
}


function checkBody(body: string): number {
  const length = codePointLength(body);
  if (length === 0 || body.trim() === '') throw new AppError('message_empty', 'The message is empty');
  if (length > MAX_MESSAGE_CHARS) {
    throw new AppError('message_too_long', `The message is ${length} characters; the most is ${MAX_MESSAGE_CHARS}`);
  }
  return countParts(body);
}

/** The daily cap resets at midnight in Sydney: that is when a retry can succeed. */
function dailyLimitError(now: Date, what: string): AppError {
  const resetsAt = sydneyDayEndExclusive(sydneyDay(now));
  const retryAfter = Math.max(1, Math.ceil((resetsAt.getTime() - now.getTime()) / 1000));
  return new AppError('daily_limit_exceeded', what, { retry_after: retryAfter, resets_at: resetsAt.toISOString() });
}

function assertCanSend(actor: Actor): void {
  if (actor.account.accountStatus !== 'active') {
    throw new AppError('forbidden', `The account is ${actor.account.accountStatus} and cannot send`);
  }
}

const UUID_RE = new RegExp(UUID_PATTERN);

/** link_tracking as the send gives it, else the account's default (its settings, read with the key). */
function tracksLinks(actor: Actor, given: boolean | undefined): boolean {
  return given ?? actor.account.settings.linkTracking;
}

/**
 * How long a /send statement runs before a second may open beside it: above what most statements take when
 * nothing waits on a lock (p50 14–31 ms, p90 24–58 ms under the send bench with this 2-core machine at load ~11;
 * decision 0003), and short enough that a lock wait holds other accounts' sends up by this
 * much once, not for as long as it lasts.
 */
const SECOND_STATEMENT_AFTER_MS = 50;

export function createMessageService(deps: MessageServiceDeps) {
  const now = deps.now ?? (() => new Date());
  // Group commit for /send: concurrent requests share one statement (one round trip, one commit), several of
  // one account too (the statement walks each account's requests in order), so one busy key is not capped at
  // one request per statement. A failed statement is retried request by request, so one bad request cannot
  // fail its neighbours. One statement in flight normally (larger statements: less CPU per request in the API and
  // in PostgreSQL); a second opens beside one that has run SECOND_STATEMENT_AFTER_MS, most likely waiting on an
  // account's row lock (a long /send-batch or credit move of that account), so that wait does not hold up every
  // other account's sends (test/api/send-lock-wait.test.ts).
  const singles = createBatcher<SingleSend, SendOutcome>({
    maxSize: 100,
    maxConcurrent: 2,
    openAfterMs: SECOND_STATEMENT_AFTER_MS,
    run: async (items) => {
      try {
        return await insertSingles(deps.db, items);
      } catch (err) {
        if (items.length === 1) throw err;
        return Promise.all(items.map((item) => insertSingles(deps.db, [item]).then((r) => r[0]!, (e: Error) => e)));
      }
    },
  });
  const linkFor = (template: string) => {
    if (!templateHasPlaceholder(template, OPTOUT_FIELD)) return null;
    const code = generateOptoutCode();
    return { code, url: `${deps.optoutLinkBase}/${code}` };
  };

  // Link tracking: the finished body's URLs become short links; parts and credits are counted on the result.
  const tracked = (body: string, track: boolean) => trackedBody(body, deps.optoutLinkBase, track);

  /** The body of a single send: {{OptOutLink}} and {{SendingNumber}} filled in, links shortened, then checked and counted. */
  function singleBody(template: string, sendingNumber: string | null, track: boolean) {
    assertSingleMerge(template);
    const link = linkFor(template);
    const extra: Record<string, string> = {};
    if (link) extra[OPTOUT_FIELD] = link.url;
    if (sendingNumber !== null) extra[SENDING_FIELD] = sendingNumber;
    const { body, links } = tracked(Object.keys(extra).length > 0 ? renderMerge(template, undefined, extra) : template, track);
    return { body, parts: checkBody(body), link, links };
  }

  /**
   * {{SendingNumber}} on a single send: the sender is decided before the body is counted (the sender rule, as
   * the statement applies it), or null when the template does not use the field.
   */
  async function sendingNumberFor(actor: Actor, input: SendInput, country: 'AU' | 'NZ'): Promise<string | null> {
    if (!templateHasPlaceholder(input.message, SENDING_FIELD)) return null;
    return (await resolveSender(actor, input.sender ?? input.from)) ?? deps.sharedSender[country];
  }

  async function send(actor: Actor, input: SendInput, within?: Within<SendResult>, options: SendOptions = {}): Promise<SendResult> {
    assertCanSend(actor);
    const home = actor.account.settings.country;
    const phone = normalisePhone(input.to, home);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(input.to, phone.reason));
    const given = parseSender(input.sender ?? input.from, home);
    if (given === 'invalid') throw senderNotAllowed();
    const sendingNumber = await sendingNumberFor(actor, input, phone.country);
    // The body names its sender, so the statement must send from exactly that one (it re-checks the account may).
    const named = sendingNumber !== null && sendingNumber !== deps.sharedSender[phone.country] ? parseSender(sendingNumber, home) : null;
    const requested = named && named !== 'invalid' ? named : given;
    const { body, parts, link, links } = singleBody(input.message, sendingNumber, tracksLinks(actor, input.link_tracking));
    const scheduledAt = releaseTime({ sendAt: scheduleOf(input.send_at), now: now(), urgent: input.urgent, country: phone.country, settings: actor.account.settings });
    const request: SingleSend = {
      id: uuidv7(), ledgerId: uuidv7(), campaignId: uuidv7(), accountId: actor.accountId,
      senderParentId: actor.account.inheritParentSenders ? actor.account.parentId : null,
      optoutExempt: actor.account.optoutExempt, recipient: phone.e164, country: phone.country, body, parts,
      optoutCode: link?.code ?? null, campaignName: input.campaign ?? null, metadata: messageMetadata(input.metadata), requestedSender: requested,
      sharedSender: deps.sharedSender[phone.country], today: sydneyDay(now()), scheduledAt, links,
      ...(options.customerPart ? { customerPart: true } : {}),
    };
    const toResult = (outcome: SendOutcome): SendResult => {
      if (!outcome.senderOk) throw senderNotAllowed();
      if (outcome.optedOut) throw new AppError('recipient_opted_out', `${phone.e164} has opted out of messages from this account`);
      if (outcome.dailyExceeded) throw dailyLimitError(now(), 'The account has reached its daily send limit');
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
      : toResult(await singles.submit(request));
    deps.onQueued(1);
    return result;
  }

  /** send_at as the instant the statement stores, or null to send now; 400 invalid_send_at when refused. */
  function scheduleOf(sendAt: string | undefined): string | null {
    if (sendAt === undefined) return null;
    const parsed = parseSendAt(sendAt, now());
    if (!parsed.ok) throw new AppError('invalid_send_at', parsed.reason);
    return parsed.at.toISOString();
  }

  /** The sender a request may use: its registered spelling, null for the default; 400 when not allowed. */
  async function resolveSender(actor: Actor, given: string | undefined): Promise<string | null> {
    const requested = parseSender(given, actor.account.settings.country);
    if (requested === 'invalid') throw senderNotAllowed();
    const [allowed] = await rows<{ sender: string | null }>(deps.db, allowedSenderQuery(actor, requested));
    if (requested !== null && !allowed?.sender) throw senderNotAllowed();
    return allowed?.sender ?? null;
  }

  /** The batch's recipients as given, then its list's contacts (a list beyond 1,000 goes as one batch all the same). */
  async function recipientsOf(actor: Actor, input: BatchInput): Promise<Recipient[]> {
    const given = (input.recipients ?? []).map(readRecipient);
    if (input.list_id === undefined) {
      if (given.length === 0) throw new AppError('validation_failed', 'Give recipients, list_id or both', { details: [{ field: 'recipients', message: 'is required without list_id' }] });
      return given;
    }
    const listed = deps.listRecipients ? await deps.listRecipients(actor.accountId, input.list_id) : null;
    if (listed === null) throw notFound('List');
    return [...given, ...listed];
  }

  /**
   * Everything a batch decides before writing: numbers normalised and de-duplicated, opted-out ones dropped, each
   * body merged and counted. /send-batch writes the result; /send-batch/preview shows it.
   */
  async function prepareBatch(actor: Actor, input: BatchInput) {
    const recipients = await recipientsOf(actor, input);
    const merge = batchMerge(input.message, recipients.map((r) => r.merge_data));
    const sender = await resolveSender(actor, input.sender ?? input.from);
    const invalid: InvalidNumber[] = [];
    const seen = new Map<string, { e164: string; country: 'AU' | 'NZ'; mergeData: Record<string, string> | undefined; metadata: Record<string, string> | null }>();
    let duplicates = 0;
    for (const r of recipients) {
      const raw = r.phone;
      const phone = normalisePhone(raw, actor.account.settings.country);
      if (!phone.ok) { invalid.push({ number: raw, reason: phone.reason }); continue; }
      if (seen.has(phone.e164)) { duplicates += 1; continue; }
      seen.set(phone.e164, {
        e164: phone.e164, country: phone.country, mergeData: r.merge_data, metadata: messageMetadata(input.metadata, r.metadata),
      });
    }
    const optedOut = actor.account.optoutExempt ? new Set<string>() : await findOptedOut(deps.db, actor.accountId, [...seen.keys()]);
    const items: BatchItem[] = [];
    const missing: MissingMergeFields[] = [];
    const track = tracksLinks(actor, input.link_tracking);
    for (const r of seen.values()) {
      if (optedOut.has(r.e164)) continue;
      const link = linkFor(input.message);
      const from = sender ?? deps.sharedSender[r.country];
      const lacking = merge.missing(r.mergeData);
      if (lacking.length > 0) missing.push({ phone: r.e164, fields: lacking });
      const { body, links } = tracked(renderMerge(input.message, r.mergeData, { [SENDING_FIELD]: from, ...(link ? { [OPTOUT_FIELD]: link.url } : {}) }, merge.fields), track);
      items.push({
        id: uuidv7(), recipient: r.e164, country: r.country, sender: from,
        body, parts: checkBody(body), optoutCode: link?.code ?? null, metadata: r.metadata, scheduledAt: null, links,
      });
    }
    if (input.strict_merge_fields) assertNoneMissing(missing);
    return { items, invalid, optedOutCount: optedOut.size, duplicates, missing };
  }

  async function sendBatch(actor: Actor, input: BatchInput, within?: Within<BatchResult>): Promise<BatchResult> {
    assertCanSend(actor);
    const sendAt = scheduleOf(input.send_at);
    const { items, invalid, optedOutCount, duplicates } = await prepareBatch(actor, input);
    // Per recipient: quiet hours follow each recipient's clock (New Zealand's, or the account's zone).
    const at = now();
    for (const item of items) item.scheduledAt = releaseTime({ sendAt, now: at, urgent: input.urgent, country: item.country, settings: actor.account.settings });
    const totalCredits = items.reduce((sum, i) => sum + i.parts, 0);
    const partsPerMessage = items.reduce((max, i) => Math.max(max, i.parts), items.length ? 0 : countParts(input.message));
    const result = await deps.db.transaction(async (tx) => {
      const batch = { campaignId: uuidv7(), campaignName: input.campaign ?? null, template: input.message, items, totalCredits, partsPerMessage, today: sydneyDay(now()) };
      const outcome = await insertBatch(tx, actor, batch);
      if (outcome.dailyExceeded) throw dailyLimitError(now(), 'This batch would pass the account\'s daily send limit');
      if (outcome.creditsAfter === null) throw insufficientCredits(totalCredits, outcome.creditsBefore);
      const withLinks = items.flatMap((i) => (i.links ? [{ messageId: i.id, links: i.links }] : []));
      if (withLinks.length > 0) await insertLinks(tx, actor.accountId, withLinks);
      const res: BatchResult = {
        campaign_id: batch.campaignId, recipients_queued: items.length, invalid_numbers: invalid.map((i) => i.number),
        invalid_details: invalid, opted_out_count: optedOutCount, duplicates_removed: duplicates, credits_used: totalCredits,
        credits_remaining: outcome.creditsAfter, segments: items.reduce((sum, i) => sum + textSegments(i.body), 0),
      };
      if (within) await within(tx, res);
      return res;
    });
    if (items.length > 0) deps.onQueued(items.length);
    return result;
  }

  /**
   * By id, or by the Idempotency-Key the account used on `/send` (a value that is not a message id of this
   * account is looked up as a key; UUIDs too, since clients often use UUIDs as keys). Unknown is 404, never 400.
   */
  async function get(actor: Actor, idOrKey: string): Promise<MessageView & { links: LinkView[] }> {
    let row = UUID_RE.test(idOrKey) ? await findMessage(deps.db, actor.accountId, idOrKey) : null;
    if (!row) {
      const id = await findMessageIdByIdempotencyKey(deps.db, actor.accountId, idOrKey);
      row = id ? await findMessage(deps.db, actor.accountId, id) : null;
    }
    if (!row) throw notFound('Message');
    return toMessageView(row, await deps.links.ofMessage(actor.accountId, row.id));
  }

  /** POST /send/preview: what /send would send and charge, without writing anything. */
  async function previewSend(actor: Actor, input: SendInput): Promise<PreviewRecipient & { opted_out: boolean }> {
    const phone = normalisePhone(input.to, actor.account.settings.country);
    if (!phone.ok) throw new AppError('invalid_number', invalidNumberMessage(input.to, phone.reason));
    await resolveSender(actor, input.sender ?? input.from);
    const { body, parts } = singleBody(input.message, await sendingNumberFor(actor, input, phone.country), tracksLinks(actor, input.link_tracking));
    const optedOut = !actor.account.optoutExempt && (await findOptedOut(deps.db, actor.accountId, [phone.e164])).size > 0;
    return { ...previewOf(phone.e164, body, parts), opted_out: optedOut };
  }

  /** POST /send-batch/preview: the batch as /send-batch would queue it, without writing or charging. */
  async function previewBatch(actor: Actor, input: BatchInput): Promise<BatchPreview> {
    const { items, invalid, optedOutCount, duplicates, missing } = await prepareBatch(actor, input);
    const recipients = items.map((i) => previewOf(i.recipient, i.body, i.parts));
    return {
      recipients,
      total_credits: items.reduce((sum, i) => sum + i.parts, 0),
      total_segments: recipients.reduce((sum, r) => sum + r.segments, 0),
      invalid_numbers: invalid.map((i) => i.number), invalid_details: invalid, opted_out_count: optedOutCount, duplicates_removed: duplicates,
      missing_merge_fields: missing,
    };
  }

  /** DELETE /message/{id}: cancels a scheduled message and refunds it; 409 once it is queued or later. */
  async function cancel(actor: Actor, id: string) {
    const { cancelled, creditsAfter } = await cancelScheduled(deps.db, actor.accountId, { messageId: id }, 'cancelled');
    if (cancelled.length === 0) {
      const status = await messageStatus(deps.db, actor.accountId, id);
      if (status === null) throw notFound('Message');
      throw new AppError('not_scheduled', `The message is ${status}; only a scheduled message can be cancelled`);
    }
    return { ok: true as const, status: 'cancelled' as const, credits_refunded: cancelled[0]!.credits, credits_remaining: creditsAfter! };
  }

  const list = (actor: Actor, query: MessageListQuery) => listAccountMessages(deps.db, actor, query);
  const exportCsv = (actor: Actor, query: MessageExportQuery) => exportAccountMessages(deps.db, actor, query);

  return { send, sendBatch, get, list, exportCsv, previewSend, previewBatch, cancel };
}

export type MessageService = ReturnType<typeof createMessageService>;

// A campaign's page of messages, and the row shape receipts act on.
export { listCampaignMessages, type MessageRow } from './messages.repo.ts';
