import { useQuery } from '@tanstack/react-query';
import { get } from './lib/api.ts';
import { DEFAULT_ZONE } from './lib/zoned.ts';

/** `GET /settings`: the account's sending settings. */
export interface AccountSettings {
  time_zone: string;
  quiet_hours: { start: string; end: string } | null;
  link_tracking: boolean;
  /** the country a number written without its country code is read in */
  country: 'AU' | 'NZ';
  /** a debit below this many credits emails the owner once; null: off */
  low_balance_threshold: number | null;
}

/** What every account starts with; shown until the real settings arrive. */
export const DEFAULT_SETTINGS: AccountSettings = { time_zone: DEFAULT_ZONE, quiet_hours: null, link_tracking: false, country: 'AU', low_balance_threshold: null };

export function useAccountSettings() {
  const q = useQuery({
    queryKey: ['settings'],
    queryFn: async () => (await get<{ settings: AccountSettings }>('/settings')).settings,
    staleTime: 60_000,
  });
  return { ...q, settings: q.data ?? DEFAULT_SETTINGS };
}
