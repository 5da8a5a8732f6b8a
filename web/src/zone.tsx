import { createContext, useContext } from 'react';
import { dateTime } from './lib/format.ts';

/**
 * The zone every date is shown in: the account's `time_zone` (GET /settings) inside the signed-in shell, so that
 * "9:00 am" on any page is the same clock the Send page's picker and quiet hours use; undefined (the browser's
 * zone) in the operator console, which belongs to no account. Every date carries its zone's abbreviation.
 */
export const ZoneContext = createContext<string | undefined>(undefined);

export const useZone = () => useContext(ZoneContext);

/** One instant, in the zone above, as a `<time>` element. */
export function When({ iso }: { iso: string | null | undefined }) {
  const zone = useZone();
  return iso ? <time dateTime={iso}>{dateTime(iso, zone)}</time> : <>—</>;
}
