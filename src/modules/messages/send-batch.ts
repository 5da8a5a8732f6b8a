// POST /send-batch as a named function that takes its dependencies (send.ts has the pieces it shares with /send):
// the batch, its debit, its ledger rows and its campaign are written in one transaction.
import type { Actor } from '../../platform/actor.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { uuidv7 } from '../../platform/ids.ts';
import { sydneyDay } from '../../platform/sydney-day.ts';
import { insufficientCredits } from '../credits/insufficient-credits.ts';
import { releaseTime } from '../settings/quiet-hours.ts';
import { insertLinks } from '../links/links.service.ts';
import { normalisePhone } from '../../common/phone.ts';
import { textSegments } from '../../carrier/carrier.ts';
import { renderMerge } from './merge.ts';
import { readRecipient, type Recipient } from './recipients.ts';
import { assertNoneMissing, batchMerge, type MissingMergeFields } from './merge-check.ts';
import { countParts } from './parts.ts';
import { findOptedOut, insertBatch, type BatchItem } from './messages.repo.ts';
import {
  assertCanSend, checkBody, dailyLimitError, linkFor, messageMetadata, OPTOUT_FIELD, resolveSender, scheduleOf, SENDING_FIELD, tracked, tracksLinks,
  type BatchInput, type BatchResult, type InvalidNumber, type SendDeps, type Within,
} from './send.ts';

/** The batch's recipients as given, then its list's contacts (a list beyond 1,000 goes as one batch all the same). */
export async function recipientsOf(deps: SendDeps, actor: Actor, input: BatchInput): Promise<Recipient[]> {
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
export async function prepareBatch(deps: SendDeps, actor: Actor, input: BatchInput) {
  const recipients = await recipientsOf(deps, actor, input);
  const merge = batchMerge(input.message, recipients.map((r) => r.merge_data));
  const sender = await resolveSender(deps, actor, input.sender ?? input.from);
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
    const link = linkFor(deps, input.message);
    const from = sender ?? deps.sharedSender[r.country];
    const lacking = merge.missing(r.mergeData);
    if (lacking.length > 0) missing.push({ phone: r.e164, fields: lacking });
    const { body, links } = tracked(deps, renderMerge(input.message, r.mergeData, { [SENDING_FIELD]: from, ...(link ? { [OPTOUT_FIELD]: link.url } : {}) }, merge.fields), track);
    items.push({
      id: uuidv7(), recipient: r.e164, country: r.country, sender: from,
      body, parts: checkBody(body), optoutCode: link?.code ?? null, metadata: r.metadata, scheduledAt: null, links,
    });
  }
  if (input.strict_merge_fields) assertNoneMissing(missing);
  return { items, invalid, optedOutCount: optedOut.size, duplicates, missing };
}

export async function sendBatch(deps: SendDeps, actor: Actor, input: BatchInput, within?: Within<BatchResult>): Promise<BatchResult> {
  assertCanSend(actor);
  const sendAt = scheduleOf(deps, input.send_at);
  const { items, invalid, optedOutCount, duplicates } = await prepareBatch(deps, actor, input);
  // Per recipient: quiet hours follow each recipient's clock (New Zealand's, or the account's zone).
  const at = deps.now();
  for (const item of items) item.scheduledAt = releaseTime({ sendAt, now: at, urgent: input.urgent, country: item.country, settings: actor.account.settings });
  const totalCredits = items.reduce((sum, i) => sum + i.parts, 0);
  const partsPerMessage = items.reduce((max, i) => Math.max(max, i.parts), items.length ? 0 : countParts(input.message));
  const result = await deps.db.transaction(async (tx) => {
    const batch = { campaignId: uuidv7(), campaignName: input.campaign ?? null, template: input.message, items, totalCredits, partsPerMessage, today: sydneyDay(deps.now()) };
    const outcome = await insertBatch(tx, actor, batch);
    if (outcome.dailyExceeded) throw dailyLimitError(deps.now(), 'This batch would pass the account\'s daily send limit');
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
