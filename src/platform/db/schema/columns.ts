import { customType, timestamp } from 'drizzle-orm/pg-core';

/** The column shapes every table file uses: a timestamptz read as a Date, and raw bytes (sealed secrets). */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
