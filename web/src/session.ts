import { useQuery } from '@tanstack/react-query';
import { ApiError, get, setCsrf } from './lib/api.ts';

export interface SessionInfo {
  csrf_token: string;
  user: {
    id: string; email: string; name: string | null; can_send: boolean; can_billing: boolean;
    role: 'owner' | 'admin' | 'member'; permissions: Array<'read' | 'send' | 'billing' | 'manage' | 'owner'>;
  };
  account: { id: string; business_name: string; parent_account_id: string | null; hierarchy_enabled: boolean; account_status: string };
}

/** Who is signed in; null when nobody is (401). Keeps the CSRF token for writes. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const s = await get<SessionInfo>('/session');
        setCsrf(s.csrf_token);
        return s;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}
