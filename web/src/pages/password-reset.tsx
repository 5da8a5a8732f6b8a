import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { ApiError, POST } from '../lib/api.ts';
import { Button, ErrorText, Input } from '../ui.tsx';
import { AuthFrame } from './auth.tsx';

/** "Forgot password?": asks for the email; the answer is the same whether or not it has an account. */
export function ForgotPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await POST('/password/forgot', { body: { email } });
      setSent(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (sent) {
    return (
      <AuthFrame title="Check your email">
        <p className="text-sm">If <strong>{email}</strong> has a Tasman account, a link to choose a new password is on its way. It works once, for an hour.</p>
        <Link to="/login" className="text-sm text-blue-800 underline">Back to sign in</Link>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Forgot password">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <Input label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <ErrorText error={error} />
        <Button type="submit" disabled={busy} className="w-full">Email me a reset link</Button>
      </form>
      <Link to="/login" className="text-sm text-blue-800 underline">Back to sign in</Link>
    </AuthFrame>
  );
}

/** The reset link's page (/app/reset#token): a new password, then sign in with it. */
export function ResetPage() {
  const token = useLocation().hash.slice(1);
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await POST('/password/reset', { body: { token, password } });
      setDone(true);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'error', String(err)));
    } finally {
      setBusy(false);
    }
  };
  if (!token) return <AuthFrame title="Reset password"><ErrorText error={new Error('This page needs the whole reset link, including the part after #.')} /></AuthFrame>;
  if (done) {
    return (
      <AuthFrame title="Password changed">
        <p className="text-sm">Your new password is set, and every browser that was signed in is signed out. Two-factor authentication stays on.</p>
        <Link to="/login" className="text-sm text-blue-800 underline">Sign in</Link>
      </AuthFrame>
    );
  }
  const fieldError = error?.forField('password') ?? (error?.code === 'weak_password' ? error.message : undefined);
  return (
    <AuthFrame title="Choose a new password">
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <Input label="New password" type="password" autoComplete="new-password" required minLength={12} value={password}
          onChange={(e) => setPassword(e.target.value)} error={fieldError} />
        {error && !fieldError && <ErrorText error={error} />}
        <Button type="submit" disabled={busy} className="w-full">Set password</Button>
      </form>
    </AuthFrame>
  );
}
