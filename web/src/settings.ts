import { useQuery } from '@tanstack/react-query';
import { GET, type Res } from './lib/api.ts';
import { DEFAULT_ZONE } from './lib/zoned.ts';

/** `GET /settings`: the account's sending settings. */
export type AccountSettings = Res<'/settings'>['settings'];

/** What every account starts with; shown until the real settings arrive. */
export const DEFAULT_SETTINGS: AccountSettings = { time_zone: DEFAULT_ZONE, quiet_hours: null, link_tracking: false, country: 'AU', low_balance_threshold: null };

export function useAccountSettings() {
  const q = useQuery({
    queryKey: ['settings'],
    queryFn: async () => (await GET('/settings')).settings,
    staleTime: 60_000,
  });
  return { ...q, settings: q.data ?? DEFAULT_SETTINGS };
}
