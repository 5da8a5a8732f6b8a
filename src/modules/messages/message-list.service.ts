import type { Static } from 'typebox';
import type { Actor } from '../../platform/actor.ts';
import type { Executor } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors.ts';
import { containsPattern, parseIsoInstant } from '../../common/query-filters.ts';
import { decodeCursor, encodeCursor } from '../../platform/http/keyset-cursor.ts';
import { listMessages, type MessageFilter } from './message-list.repo.ts';
import { toMessageListItem } from './message-view.ts';
import type { MessageListQuery as MessageListQuerySchema } from './messages.schemas.ts';
import { normalisePhone, type PhoneCountry } from '../../common/phone.ts';

/** The filters of GET /messages, as its schema takes them. */
export type MessageListQuery = Static<typeof MessageListQuerySchema>;

export type MessageListItem = ReturnType<typeof toMessageListItem>;

const DEFAULT_LIMIT = 25;

function instant(value: string | undefined, edge: 'start' | 'end', field: string): Date | null {
  if (value === undefined) return null;
  const at = parseIsoInstant(value, edge);
  if (!at) throw new AppError('validation_failed', `${field} must be an ISO 8601 date or date-time`, { details: [{ field, message: 'not a date' }] });
  return at;
}

/** The filters of GET /messages, checked and turned into what the query needs. */
export function messageFilter(q: MessageListQuery, home: PhoneCountry): MessageFilter {
  const dateFrom = instant(q.date_from, 'start', 'date_from');
  const dateTo = instant(q.date_to, 'end', 'date_to');
  if (dateFrom && dateTo && dateFrom > dateTo) throw new AppError('invalid_range', 'date_from is after date_to');
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
  if (q.cursor !== undefined && !after) {
    throw new AppError('validation_failed', 'cursor is not a next_cursor this service returned', { details: [{ field: 'cursor', message: 'invalid cursor' }] });
  }
  // A whole number in any accepted form is an exact match (indexed); anything else is a literal substring.
  const to = q.to?.trim() ? normalisePhone(q.to, home) : null;
  const sender = q.sender?.trim() ? normalisePhone(q.sender, home) : null;
  return {
    status: q.status ?? null,
    recipient: to?.ok ? to.e164 : null,
    recipientPattern: to && !to.ok ? containsPattern(q.to!.trim()) : null,
    campaignId: q.campaign_id ?? null,
    // Sender IDs are matched case-insensitively, as they are when sending; a number in any form as E.164.
    sender: sender ? (sender.ok ? sender.e164 : q.sender!.trim()) : null,
    dateFrom, dateTo,
    bodyPattern: q.q ? containsPattern(q.q) : null,
    after,
  };
}

/** GET /messages: a page of the caller's outbound messages, newest first, and the cursor of the next page. */
export async function listAccountMessages(db: Executor, actor: Actor, q: MessageListQuery): Promise<{ messages: MessageListItem[]; next_cursor: string | null }> {
  const limit = q.limit ?? DEFAULT_LIMIT;
  const found = await listMessages(db, actor.accountId, messageFilter(q, actor.account.settings.country), limit);
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    messages: page.map(toMessageListItem),
    next_cursor: found.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id }) : null,
  };
}
