import { csvField, defuse } from '../../common/csv.ts';

/**
 * The opt-out audit as CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
 * doubled). Free text written by the public (the reply) that begins with `=`, `+`, `-`, `@`, a tab or a carriage
 * return is prefixed with `'`, so a spreadsheet opening the file never runs it as a formula; numbers (which begin
 * with `+`) are Tasman's own E.164 and are left alone.
 */
export const AUDIT_COLUMNS = ['number', 'action', 'source', 'raw_text', 'received_at', 'inbound_message_id', 'message_id'] as const;

export type AuditRecord = Record<(typeof AUDIT_COLUMNS)[number], string | null>;

export function auditCsv(records: AuditRecord[]): string {
  const lines = [AUDIT_COLUMNS.join(',')];
  for (const r of records) lines.push(AUDIT_COLUMNS.map((c) => csvField(c === 'raw_text' ? defuse(r[c]) : r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
