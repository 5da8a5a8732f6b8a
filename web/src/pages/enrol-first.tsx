import { lazy, Suspense } from 'react';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { DELETE, GET } from '../lib/api.ts';
import type { SessionInfo } from '../session.ts';
import { Button, Loading, Notice } from '../ui.tsx';

const SecurityPage = lazy(() => import('./security.tsx'));

/**
 * What a user sees when the owner requires two-factor authentication and they have none yet: the Security page's
 * enrolment and nothing else (the API refuses everything else). Once it is on and they have seen their recovery
 * codes, "Continue" reloads the session and the dashboard opens.
 */
export function EnrolFirst({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const status = useQuery({ queryKey: ['two-factor'], queryFn: () => GET('/two-factor') });
  const signOut = async () => {
    await DELETE('/session').catch(() => undefined);
    qc.clear();
    navigate('/login');
  };
  return (
    <div className="mx-auto max-w-3xl space-y-4 p-4 md:p-8">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-lg font-bold text-blue-800">Tasman</p>
          <p className="text-sm text-slate-700">{session.account.business_name} · {session.user.email}</p>
        </div>
        <Button kind="secondary" onClick={() => void signOut()}>Sign out</Button>
      </header>
      <main id="main" className="space-y-4">
        <Notice>{session.account.business_name} requires two-factor authentication. Set it up below to use the dashboard.</Notice>
        <Suspense fallback={<Loading />}><SecurityPage session={session} /></Suspense>
        {status.data?.enabled && (
          <Button onClick={() => void qc.invalidateQueries({ queryKey: ['session'] })}>Continue to the dashboard</Button>
        )}
      </main>
    </div>
  );
}
