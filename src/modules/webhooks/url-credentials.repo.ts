import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/client.ts';

// The start-up step that seals credentials left inside webhook URLs saved before migration 0016 (SQL cannot seal
// them: the key is the process's). It spans every account by design, like the worker's queries.

export type StoredUrl = { accountId: string; kind: string; url: string };

/** Endpoints whose stored URL still carries a userinfo part (`scheme://user:pass@host…`) and nothing sealed. */
export function urlsWithCredentials(db: Executor): Promise<StoredUrl[]> {
  return rows<StoredUrl>(db, sql`
    select account_id as "accountId", kind, url from webhook_endpoints
    where url_credentials_sealed is null and url ~ '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*@'`);
}

/**
 * Stores the URL without its credentials and the credentials sealed, only while the row still holds the URL that
 * was read: a PUT in between (or another process starting at the same time) wins, and nothing is sealed twice.
 */
export async function storeSealedCredentials(db: Executor, row: StoredUrl, url: string, sealed: Buffer): Promise<boolean> {
  const changed = await rows<{ kind: string }>(db, sql`
    update webhook_endpoints set url = ${url}, url_credentials_sealed = ${sealed}
    where account_id = ${row.accountId} and kind = ${row.kind} and url = ${row.url} and url_credentials_sealed is null
    returning kind`);
  return changed.length > 0;
}
