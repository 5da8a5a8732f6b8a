import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError, POST, setCsrf, type Res } from '../lib/api.ts';
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

/** A form's submit with its busy flag and its error (the sign-in steps). */
function useSubmit(action: () => Promise<void>) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, submit: (e: FormEvent) => void submit(e) };
}

export function LoginPage() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const signedIn = useSignedIn();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/';
  const to = from === '/login' ? '/' : from;
  const step = useSubmit(async () => {
    const r = await POST('/session', { body: { email, password } });
    if ('second_factor_required' in r) setChallenge(r.challenge);
    else signedIn(r, to);
  });
  if (challenge) return <CodeStep challenge={challenge} to={to} onRestart={() => { setChallenge(null); setPassword(''); }} />;
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={step.submit} className="space-y-4" noValidate>
        <Input label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Input label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <ErrorText error={step.error} />
        <Button type="submit" disabled={step.busy} className="w-full">Sign in</Button>
      </form>
      <Link to="/forgot" className="text-sm text-blue-800 underline">Forgot password?</Link>
      <p className="text-sm text-slate-700">New here? Open the invite link you were given to choose a password.</p>
    </AuthFrame>
  );
}

/** The second step for a user with two-factor authentication: a code from the app, or a recovery code. */
function CodeStep({ challenge, to, onRestart }: { challenge: string; to: string; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const signedIn = useSignedIn();
  const step = useSubmit(async () => { signedIn(await POST('/session/two-factor', { body: { challenge, code: code.trim() } }), to); });
  const expired = step.error instanceof ApiError && step.error.code === 'unauthorized';
  const codeError = step.error instanceof ApiError && step.error.code === 'invalid_code' ? step.error.message : undefined;
  return (
    <AuthFrame title="Two-factor authentication">
      <form onSubmit={step.submit} className="space-y-4" noValidate>
        <Input label="Authentication code" inputMode="numeric" autoComplete="one-time-code" required autoFocus value={code}
          onChange={(e) => setCode(e.target.value)} error={codeError}
          hint="The 6-digit code your authenticator app shows for Tasman, or one of your recovery codes" />
        {step.error && !codeError ? <ErrorText error={step.error} /> : null}
        <Button type="submit" disabled={step.busy || expired} className="w-full">Verify</Button>
      </form>
      <button type="button" className="text-sm underline" onClick={onRestart}>Start again with email and password</button>
    </AuthFrame>
  );
}

export function InvitePage() {
  const token = useLocation().hash.slice(1);
  const [info, setInfo] = useState<Res<'/invites/inspect', 'post'> | null>(null);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const signedIn = useSignedIn();
  useEffect(() => {
    if (!token) { setLoadError(new Error('This page needs the whole invite link, including the part after #.')); return; }
    POST('/invites/inspect', { body: { token } }).then(setInfo, setLoadError);
  }, [token]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      signedIn(await POST('/invites/accept', { body: { token, password } }));
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
