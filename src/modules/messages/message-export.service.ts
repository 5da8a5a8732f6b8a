import { Readable } from 'node:stream';
import type { Static } from 'typebox';
import type { Actor } from '../../platform/actor.ts';
import type { Executor } from '../../platform/db/client.ts';
import { csvLine, defuse } from '../../common/csv.ts';
import { listMessages, type MessageFilter } from './message-list.repo.ts';
import { messageFilter, type MessageListQuery } from './message-list.service.ts';
import { toMessageListItem } from './message-view.ts';
import { EXPORT_COLUMNS, type MessageExportQuery as MessageExportQuerySchema } from './messages.schemas.ts';

/** GET /messages/export takes the filters of GET /messages; it has no page size and no cursor. */
export type MessageExportQuery = Static<typeof MessageExportQuerySchema>;

/** Rows per read: each read is one short keyset query, and at most one batch of rows and text is held at a time. */
const BATCH = 1000;

// Every cell a spreadsheet could take for a formula is defused: bodies, Sender IDs and metadata are written by
// customers or the public. A whole E.164 number is left alone: a spreadsheet reads it as a number at worst.
const E164 = /^\+[1-9][0-9]{6,14}$/;
const cell = (value: string | number | null): string | null => {
  if (value === null) return null;
  if (typeof value === 'number') return String(value);
  return E164.test(value) ? value : defuse(value);
};

type Row = Awaited<ReturnType<typeof listMessages>>[number];

function line(row: Row): string {
  const m = toMessageListItem(row);
  const r = m.delivery_receipt;
  return csvLine([
    m.id, m.created_at, m.recipient, m.contact_name, m.sender, m.status, m.parts, m.campaign_id, m.sent_at, m.scheduled_at,
    r?.status ?? null, r?.received_at ?? null, r?.error_code ?? null, m.error_code, m.error_message, m.body,
    m.metadata === null ? null : JSON.stringify(m.metadata),
  ].map(cell));
}

/**
 * The rows of GET /messages, newest first, read in keyset batches exactly as the list's pages are (the same
 * filters, indexes and order), each batch only when the reader wants more (decision 0084). `first` is the first
 * batch, read before the response starts so that a failing query is an error answer, not a cut-off file.
 */
async function* csvOf(db: Executor, accountId: string, filter: MessageFilter, first: Row[]): AsyncGenerator<string> {
  yield csvLine([...EXPORT_COLUMNS]);
  let found = first;
  for (;;) {
    const batch = found.slice(0, BATCH);
    if (batch.length > 0) yield batch.map(line).join('');
    const last = batch[batch.length - 1];
    if (found.length <= BATCH || !last) return;
    found = await listMessages(db, accountId, { ...filter, after: { createdAt: last.position, id: last.id } }, BATCH);
  }
}

/** GET /messages/export: the caller's outbound messages matching the list's filters, as a CSV stream. */
export async function exportAccountMessages(db: Executor, actor: Actor, q: MessageExportQuery): Promise<Readable> {
  // The whole result, whatever page size or cursor a client adds to the list's query string.
  const { limit: _limit, cursor: _cursor, ...filters } = q as MessageListQuery;
  const filter = messageFilter(filters, actor.account.settings.country);
  const first = await listMessages(db, actor.accountId, filter, BATCH);
  // Byte mode: the stream holds one batch's text at most beyond what the socket has taken (backpressure).
  return Readable.from(csvOf(db, actor.accountId, filter, first), { objectMode: false });
}
