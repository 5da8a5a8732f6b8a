import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { GET } from './lib/api.ts';

/** How often the shell asks for the unread count while the tab is visible (and again whenever it regains focus). */
export const UNREAD_EVERY_MS = 10_000;

/**
 * The account's unread replies (`unread_total` of GET /inbox), for the navigation's badge. When it changes, a reply
 * arrived (or was read elsewhere): every inbox list is refetched, so open pages show it without a reload. So is a
 * first count above zero, which may have been taken after a list was.
 */
export function useUnreadReplies(): number | undefined {
  const qc = useQueryClient();
  const unread = useQuery({
    queryKey: ['unread'],
    queryFn: async () => (await GET('/inbox', { params: { query: { limit: 1, unread: true } } })).unread_total,
    refetchInterval: UNREAD_EVERY_MS,
    refetchOnWindowFocus: true,
  });
  const seen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (unread.data === undefined) return;
    // The first count counts too: a list fetched just before it may predate the replies it reports.
    const changed = seen.current === undefined ? unread.data > 0 : seen.current !== unread.data;
    if (changed) void qc.invalidateQueries({ queryKey: ['inbox'] });
    seen.current = unread.data;
  }, [unread.data, qc]);
  return unread.data;
}
