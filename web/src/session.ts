import { useQuery } from '@tanstack/react-query';
import { ApiError, GET, setCsrf, type Res } from './lib/api.ts';

export type SessionInfo = Res<'/session'>;

/** Who is signed in; null when nobody is (401). Keeps the CSRF token for writes. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      try {
        const s = await GET('/session');
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
