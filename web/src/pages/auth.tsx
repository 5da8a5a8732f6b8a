import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, post, setCsrf } from '../lib/api.ts';
import type { SessionInfo } from '../session.ts';
import { Button, ErrorText, Input, Loading } from '../ui.tsx';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-start justify-center p-4 pt-16">
      <div className="w-full max-w-sm space-y-5 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <p className="text-lg font-bold text-blue-800">Tasman</p>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}

function useSignedIn() {
  const qc = useQueryClient();
  const navigate = useNavigate();
  return (s: SessionInfo, to = '/') => {
    setCsrf(s.csrf_token);
    qc.setQueryData(['session'], s);
    navigate(to, { replace: true });
  };
}

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = useSignedIn();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await post<SessionInfo>('/session', { email, password }), from === '/login' ? '/' : from);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <Input label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Input label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorText error={error} />
        <Button type="submit" disabled={busy} className="w-full">Sign in</Button>
      </form>
      <p className="text-sm text-slate-700">New here? Open the invite link you were given to choose a password.</p>
    </AuthFrame>
  );
}

export function InvitePage() {
  const token = useLocation().hash.slice(1);
  const [info, setInfo] = useState<{ email: string; business_name: string } | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = useSignedIn();
  useEffect(() => {
    if (!token) { setLoadError(new Error('This page needs the whole invite link, including the part after #.')); return; }
    post<{ email: string; business_name: string }>('/invites/inspect', { token }).then(setInfo, setLoadError);
  }, [token]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await post<SessionInfo>('/invites/accept', { token, password }));
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'error', String(err)));
    } finally {
      setBusy(false);
    }
  };
  if (loadError) return <AuthFrame title="Invite"><ErrorText error={loadError} /></AuthFrame>;
  if (!info) return <AuthFrame title="Invite"><Loading /></AuthFrame>;
  const fieldError = error?.forField('password') ?? (error?.code === 'weak_password' ? error.message : undefined);
  return (
    <AuthFrame title={`Join ${info.business_name}`}>
      <p className="text-sm">Choose a password for <strong>{info.email}</strong>. Use at least 12 characters; a few words together work well.</p>
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <input type="email" autoComplete="username" value={info.email} readOnly hidden />
        <Input label="Password" type="password" autoComplete="new-password" required minLength={12} value={password}
          onChange={(e) => setPassword(e.target.value)} error={fieldError} />
        {error && !fieldError && <ErrorText error={error} />}
        <Button type="submit" disabled={busy} className="w-full">Set password</Button>
      </form>
    </AuthFrame>
  );
}
