import { sql, type SQL } from 'drizzle-orm';

// The daily cap of a sub-account, written once for both send paths. The day's counter lives on the account row
// (daily_day, daily_count), so the check and the count ride on the same conditional UPDATE as the debit and hold
// under any concurrency. `a` is the accounts row's name in the statement; `today` the Australia/Sydney day.

/** True when `count` more messages fit under the account's daily_limit today. */
export function dailyCapAllows(a: string, count: SQL, today: SQL): SQL {
  const col = (name: string) => sql.raw(`${a}.${name}`);
  return sql`(${col('daily_limit')} is null
    or (case when ${col('daily_day')} = ${today} then ${col('daily_count')} else 0 end) + ${count} <= ${col('daily_limit')})`;
}

/** The SET clause counting `count` more messages today (restarting the count on a new day). */
export function dailyCapCount(a: string, count: SQL, today: SQL): SQL {
  return sql`daily_count = case when ${sql.raw(`${a}.daily_day`)} = ${today} then ${sql.raw(`${a}.daily_count`)} + ${count} else ${count} end,
    daily_day = ${today}`;
}
