import { parseCsv } from '../../common/csv.ts';
import { invalidNumberMessage, normalisePhone } from '../../common/phone.ts';
import { AppError } from '../../platform/errors.ts';

/** One contact as a row of an import gives it: names and email null when the file has no such column. */
export interface ImportedContact {
  phone: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  fields: Record<string, string>;
}

export interface InvalidRow { row: number; phone: string; reason: string }

const PHONE_HEADERS = ['phone', 'mobile', 'number', 'to', 'phone number', 'mobile number'];
const NAMED: Record<string, 'first_name' | 'last_name' | 'email'> = {
  first_name: 'first_name', 'first name': 'first_name', firstname: 'first_name',
  last_name: 'last_name', 'last name': 'last_name', lastname: 'last_name', surname: 'last_name', email: 'email',
};

/** What a header means, by the caller's mapping or else by its name: phone, a named field, a custom field, or skip (''). */
function targetOf(header: string, columns: Record<string, string> | undefined): string {
  const mapped = columns && Object.hasOwn(columns, header) ? columns[header]!.trim() : undefined;
  if (mapped !== undefined) return mapped;
  const name = header.trim().toLowerCase();
  if (PHONE_HEADERS.includes(name)) return 'phone';
  return NAMED[name] ?? header.trim();
}

/**
 * Reads an import: the header row names the columns, each row is a contact. Local numbers are read in the
 * account's country; a number repeated in the file is taken once (its last row wins, as a later edit would).
 */
export function readImport(csv: string, country: 'AU' | 'NZ', maxRows: number, columns?: Record<string, string>) {
  const [header, ...rows] = parseCsv(csv);
  if (!header) throw new AppError('validation_failed', 'The file is empty', { details: [{ field: 'csv', message: 'has no header row' }] });
  if (rows.length > maxRows) {
    throw new AppError('validation_failed', `The file has ${rows.length} rows; the most is ${maxRows}`, { details: [{ field: 'csv', message: `at most ${maxRows} rows` }] });
  }
  const targets = header.map((h) => targetOf(h, columns));
  const phoneAt = targets.indexOf('phone');
  if (phoneAt < 0) {
    throw new AppError('validation_failed', 'No phone column: name one phone, mobile or number, or map one to phone in columns', { details: [{ field: 'csv', message: 'needs a phone column' }] });
  }
  const contacts = new Map<string, ImportedContact>();
  const invalid: InvalidRow[] = [];
  rows.forEach((cells, i) => {
    const raw = (cells[phoneAt] ?? '').trim();
    const phone = normalisePhone(raw, country);
    if (!phone.ok) { invalid.push({ row: i + 2, phone: raw, reason: invalidNumberMessage(raw, phone.reason) }); return; }
    const contact: ImportedContact = { phone: phone.e164, firstName: null, lastName: null, email: null, fields: {} };
    targets.forEach((target, col) => {
      const value = (cells[col] ?? '').trim();
      if (col === phoneAt || target === '' || target === 'phone') return;
      if (target === 'first_name') contact.firstName = value || null;
      else if (target === 'last_name') contact.lastName = value || null;
      else if (target === 'email') contact.email = value || null;
      else if (value !== '') contact.fields[target.slice(0, 40)] = value.slice(0, 500);
    });
    contacts.set(phone.e164, contact);
  });
  return { contacts: [...contacts.values()], invalid };
}
