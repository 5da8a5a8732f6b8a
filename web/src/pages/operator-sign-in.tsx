import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { csrfHeader, POST, type Res } from '../lib/api.ts';
import { Button, ErrorText, Input, Loading } from '../ui.tsx';
import { AuthFrame } from './auth.tsx';
import { QrCode } from './security.tsx';

// The operator console's ways in: a named operator's name, password and authenticator code (the setup link sets
// the first two and enrols the third), or the operator token.

export type OperatorSession = Res<'/session/operator'>;

const codeField = { inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9 ]*' } as const;

export function OperatorLogin({ onDone }: { onDone: (s: OperatorSession) => void }) {
  const [withToken, setWithToken] = useState(false);
  const [form, setForm] = useState({ name: '', password: '', code: '', token: '' });
  const [error, setError] = useState<unknown>(null);
  const set = (field: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [field]: e.target.value }));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      onDone(withToken
        ? await POST('/session/operator', { body: { token: form.token }, headers: csrfHeader('') })
        : await POST('/session/operator/sign-in', { body: { name: form.name, password: form.password, code: form.code }, headers: csrfHeader('') }));
    } catch (err) { setError(err); }
  };
  return (
    <AuthFrame title="Operator sign-in">
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        {withToken ? (
          <Input label="Operator token" type="password" autoComplete="off" value={form.token} onChange={set('token')}
            hint="TASMAN_ADMIN_TOKEN, or the token in DATA_DIR/admin.token" />
        ) : (
          <>
            <Input label="Name" autoComplete="username" value={form.name} onChange={set('name')} />
            <Input label="Password" type="password" autoComplete="current-password" value={form.password} onChange={set('password')} />
            <Input label="Code from your authenticator app" {...codeField} value={form.code} onChange={set('code')} />
          </>
        )}
        <ErrorText error={error} />
        <Button type="submit" className="w-full">Sign in</Button>
      </form>
      <button type="button" className="text-sm underline" onClick={() => { setWithToken(!withToken); setError(null); }}>
        {withToken ? 'Use your name and password' : 'Use the operator token instead'}
      </button>
    </AuthFrame>
  );
}

/** The setup link's page: the authenticator secret to enrol, then a password and the first code. */
export function OperatorSetup({ onDone }: { onDone: (s: OperatorSession) => void }) {
  const location = useLocation();
  const navigate = useNavigate();
  const token = location.hash.slice(1);
  const setup = useQuery({
    queryKey: ['operator-setup', token],
    queryFn: () => POST('/session/operator/setup/describe', { body: { token }, headers: csrfHeader('') }),
    retry: false,
  });
  const [form, setForm] = useState({ password: '', code: '' });
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const session = await POST('/session/operator/setup', { body: { token, ...form }, headers: csrfHeader('') });
      // The link is spent: the console's own address, without the token.
      void navigate('/operator', { replace: true });
      onDone(session);
    } catch (err) { setError(err); }
  };
  if (setup.isPending) return <AuthFrame title="Set up your operator sign-in"><Loading /></AuthFrame>;
  if (setup.error) return <AuthFrame title="Set up your operator sign-in"><ErrorText error={setup.error} /></AuthFrame>;
  return (
    <AuthFrame title="Set up your operator sign-in">
      <p>You sign in as <strong>{setup.data.name}</strong>. The console asks for a password and a code from an authenticator app.</p>
      <div className="space-y-2">
        <p className="text-sm">Scan this code with your authenticator app, or type the key below into it:</p>
        <QrCode text={setup.data.otpauth_uri} label={`QR code for setting up Tasman in an authenticator app (setup key ${setup.data.secret})`} />
        <code data-testid="totp-secret" className="block break-all rounded bg-slate-100 p-2 text-sm">{setup.data.secret}</code>
        <a className="text-sm underline" href={setup.data.otpauth_uri}>Open in an authenticator app on this device</a>
      </div>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        <Input label="New password" type="password" autoComplete="new-password" value={form.password}
          onChange={(e) => setForm({ ...form, password: e.target.value })} hint="At least 12 characters" />
        <Input label="Code from your authenticator app" {...codeField} value={form.code} onChange={(e) => setForm({ ...form, code: e.target.value })} />
        <ErrorText error={error} />
        <Button type="submit" className="w-full">Finish setup and sign in</Button>
      </form>
    </AuthFrame>
  );
}
