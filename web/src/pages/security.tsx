import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, GET, POST, PUT } from '../lib/api.ts';
import type { SessionInfo } from '../session.ts';
import { qrModules, qrPath } from '../lib/qr.ts';
import { Button, Card, ErrorText, Input, Loading, Notice, Page } from '../ui.tsx';


const fieldError = (err: unknown, field: string) => (err instanceof ApiError ? err.forField(field) : undefined);
// The secret in groups of four, as authenticator apps show it; the app ignores the spaces.
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The otpauth URI as a QR code, drawn in the page as SVG (no image URL, so the dashboard's CSP allows it), black on
 * white whatever the theme: scanners need the contrast.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const modules = useMemo(() => qrModules(text), [text]);
  return (
    <svg role="img" aria-label={label} data-testid="totp-qr" viewBox={`0 0 ${modules.length} ${modules.length}`}
      className="mt-2 h-48 w-48" shapeRendering="crispEdges">
      <rect width={modules.length} height={modules.length} fill="#fff" />
      <path d={qrPath(modules)} fill="#000" />
    </svg>
  );
}

/** Enrolment: the secret as a QR code, as text and as an otpauth link, then the app's first code turns it on. */
function Enrol({ onDone }: { onDone: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const start = useMutation({ mutationFn: () => POST('/two-factor/enrol') });
  const confirm = useMutation({
    mutationFn: () => POST('/two-factor/confirm', { body: { code: code.replace(/\s/g, '') } }),
    onSuccess: (r) => onDone(r.recovery_codes),
  });
  if (!start.data) {
    return (
      <div className="space-y-3">
        <p className="text-sm">
          Two-factor authentication is <strong>off</strong>. Turn it on and signing in will also ask for a 6-digit code from
          an authenticator app on your phone (Google Authenticator, Microsoft Authenticator, 1Password, Authy…).
        </p>
        <ErrorText error={start.error} />
        <Button onClick={() => start.mutate()} disabled={start.isPending}>Set up two-factor authentication</Button>
      </div>
    );
  }
  const submit = (e: FormEvent) => { e.preventDefault(); confirm.mutate(); };
  const codeError = fieldError(confirm.error, 'code');
  return (
    <div className="space-y-4">
      <ol className="list-decimal space-y-3 pl-5 text-sm">
        <li>
          Scan this QR code with your authenticator app, or add an account with the setup key (time-based), or open
          the link on the phone that has the app.
          <QrCode text={start.data.otpauth_uri} label={`QR code for setting up Tasman in an authenticator app (setup key ${grouped(start.data.secret)})`} />
          <dl className="mt-2 space-y-2">
            <div>
              <dt className="font-medium">Setup key</dt>
              <dd><code data-testid="totp-secret" className="block break-all rounded bg-slate-100 p-2 text-base">{grouped(start.data.secret)}</code></dd>
            </div>
            <div>
              <dt className="font-medium">Setup link</dt>
              <dd><a className="break-all text-blue-800 underline" href={start.data.otpauth_uri}>{start.data.otpauth_uri}</a></dd>
            </div>
          </dl>
        </li>
        <li>Type the 6-digit code the app now shows for Tasman.</li>
      </ol>
      <form onSubmit={submit} className="max-w-xs space-y-3" noValidate>
        <Input label="Authentication code" inputMode="numeric" autoComplete="one-time-code" value={code}
          onChange={(e) => setCode(e.target.value)} error={codeError} />
        {confirm.error && !codeError ? <ErrorText error={confirm.error} /> : null}
        <Button type="submit" disabled={confirm.isPending}>Turn on</Button>
      </form>
    </div>
  );
}

/** Shown once, right after enrolment: the codes are stored only as hashes. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-semibold">Recovery codes: shown once, keep them somewhere safe.</p>
      <p className="text-sm">Each signs you in once in place of a code, if you lose your phone.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => <li key={c}>{c}</li>)}
      </ul>
      <Button kind="secondary" onClick={() => { void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true)); }}>
        {copied ? 'Copied' : 'Copy codes'}
      </Button>
    </div>
  );
}

/** Off with a current code, a recovery code or the password. */
function TurnOff({ left }: { left: number }) {
  const qc = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const off = useMutation({
    mutationFn: () => POST('/two-factor/disable', { body: code.trim() ? { code: code.trim() } : { password } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['two-factor'] }),
  });
  const submit = (e: FormEvent) => { e.preventDefault(); off.mutate(); };
  const codeError = fieldError(off.error, 'code');
  const passwordError = fieldError(off.error, 'password');
  return (
    <div className="space-y-3">
      <p className="text-sm">
        Two-factor authentication is <strong>on</strong>: signing in asks for a code from your app.
        {' '}{left} of 10 recovery codes left.
      </p>
      <form onSubmit={submit} className="max-w-xs space-y-3" noValidate>
        <Input label="Current code or recovery code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} error={codeError} />
        <Input label="Or your password" type="password" autoComplete="current-password" value={password}
          onChange={(e) => setPassword(e.target.value)} error={passwordError} />
        {off.error && !codeError && !passwordError ? <ErrorText error={off.error} /> : null}
        <Button type="submit" kind="danger" disabled={off.isPending}>Turn off two-factor authentication</Button>
      </form>
    </div>
  );
}

/** The owner's rule for the whole team; their own second factor comes first (the API's rule too). */
function TeamRule({ required, ownOn }: { required: boolean; ownOn: boolean }) {
  const qc = useQueryClient();
  const change = useMutation({
    mutationFn: (next: boolean) => PUT('/settings/two-factor', { body: { required: next } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['session'] }),
  });
  return (
    <Card title="Two-factor authentication for the team">
      <div className="space-y-3 text-sm">
        <p>
          {required
            ? <>Everyone on the team must use two-factor authentication. Anyone without it is asked to set it up when they next use the dashboard, and can do nothing else until they have. API keys are not affected.</>
            : <>Two-factor authentication is each person&apos;s choice. Require it, and anyone without it must set it up before they can use the dashboard again. API keys are not affected.</>}
        </p>
        {!ownOn && !required && <p>Turn on your own two-factor authentication above first.</p>}
        <Button kind={required ? 'secondary' : 'primary'} disabled={change.isPending || (!ownOn && !required)} onClick={() => change.mutate(!required)}>
          {required ? 'Stop requiring two-factor authentication' : 'Require two-factor authentication for everyone'}
        </Button>
        <ErrorText error={change.error} />
      </div>
    </Card>
  );
}

export default function SecurityPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const status = useQuery({ queryKey: ['two-factor'], queryFn: () => GET('/two-factor') });
  const [codes, setCodes] = useState<string[] | null>(null);
  const enrolled = (c: string[]) => { setCodes(c); void qc.invalidateQueries({ queryKey: ['two-factor'] }); };
  return (
    <Page title="Security">
      <Card title="Two-factor authentication">
        <ErrorText error={status.error} />
        {status.isPending ? <Loading /> : status.data && (
          <div className="space-y-4">
            {codes && <Notice>Two-factor authentication is on for {session.user.email}.</Notice>}
            {codes && <RecoveryCodes codes={codes} />}
            {status.data.enabled ? <TurnOff left={status.data.recovery_codes_left} /> : <Enrol onDone={enrolled} />}
          </div>
        )}
        <p className="mt-4 text-sm text-slate-700">
          {session.user.role === 'owner'
            ? <>Lost your phone and your recovery codes? As the owner, nobody else on the team can reset yours: keep the codes safe. An API key holding every scope can reset it (see the <a className="underline" href="/docs/">API reference</a>, Team).</>
            : <>Lost your phone and your recovery codes? Ask the owner or an admin: they reset it on the Team page (Reset two-factor), and you then sign in with your password and set it up again.</>}
        </p>
      </Card>
      {session.user.role === 'owner' && status.data && <TeamRule required={session.account.two_factor_required} ownOn={status.data.enabled} />}
    </Page>
  );
}
