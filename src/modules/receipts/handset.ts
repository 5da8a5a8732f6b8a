import { sql, type SQL } from 'drizzle-orm';

// "The same handset", decided one way everywhere: a receipt's source_addr, a parked receipt and a message's
// recipient are compared by their handset key, the last eight digits of the number. An SMSC that writes the
// handset in national form (0412…) and one that writes it in international form (61412…, +61412…) give one key.
// A parked receipt stores the key itself (pending_receipts.recipient), so the key of a key is the key.
const HANDSET_KEY_DIGITS = 8;

/** The handset key of a number written in any form. */
export const handsetKey = (n: string): string => n.replace(/\D/g, '').slice(-HANDSET_KEY_DIGITS);

/** The same key, computed by PostgreSQL from a column or expression holding a number in any form. */
export const handsetKeySql = (n: SQL): SQL => sql`right(regexp_replace(${n}, '[^0-9]', '', 'g'), ${sql.raw(String(HANDSET_KEY_DIGITS))})`;

export const sameHandset = (a: string, b: string): boolean => handsetKey(a) === handsetKey(b);
