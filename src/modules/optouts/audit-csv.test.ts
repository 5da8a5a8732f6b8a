import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { defuse } from '../../common/csv.ts';
import { auditCsv, type AuditRecord } from './audit-csv.ts';

const record = (over: Partial<AuditRecord>): AuditRecord => ({
  number: '+61412345678', action: 'optout', source: 'keyword', raw_text: 'STOP', received_at: '2030-05-01T00:00:00.000Z',
  inbound_message_id: null, message_id: null, ...over,
});

/** A minimal RFC 4180 reader, to check that what we write reads back. */
function parse(csv: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i]!;
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') { cur += '"'; i++; } else if (c === '"') quoted = false; else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cur); cur = ''; } else if (c === '\r' && csv[i + 1] === '\n') { row.push(cur); out.push(row); row = []; cur = ''; i++; } else cur += c;
  }
  return out;
}

describe('auditCsv', () => {
  it('writes a header and one CRLF line per record, empty fields for nulls', () => {
    expect(auditCsv([record({})])).toBe(
      'number,action,source,raw_text,received_at,inbound_message_id,message_id\r\n+61412345678,optout,keyword,STOP,2030-05-01T00:00:00.000Z,,\r\n');
  });

  it('quotes commas, quotes and line breaks', () => {
    const csv = auditCsv([record({ raw_text: 'Stop, "please"\nnow' })]);
    expect(csv).toContain('"Stop, ""please""\nnow"');
    expect(parse(csv)[1]![3]).toBe('Stop, "please"\nnow');
  });

  it.each(['=1+1', '+SUM(A1)', '-2', '@cmd', '\tx'])('defuses the formula-looking reply %j', (text) => {
    expect(parse(auditCsv([record({ raw_text: text })]))[1]![3]).toBe(`'${text}`);
  });

  it('leaves numbers alone', () => {
    expect(parse(auditCsv([record({})]))[1]![0]).toBe('+61412345678');
  });

  it('reads back any reply text', () => {
    fc.assert(fc.property(fc.string(), (text) => {
      expect(parse(auditCsv([record({ raw_text: text })]))[1]![3]).toBe(defuse(text));
    }));
  });
});
