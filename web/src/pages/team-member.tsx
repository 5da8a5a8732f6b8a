import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { DELETE, GET, PATCH } from '../lib/api.ts';
import { Button, Card, Checkbox, ErrorText, Loading, Select } from '../ui.tsx';
import { abilities, type Permission } from './team-words.ts';
import type { User } from './team.tsx';

type Member = Pick<User, 'id' | 'email' | 'role' | 'can_send' | 'can_billing'>;

/** Change a member's role and what they may do; what the signed-in user cannot give is disabled, with the reason. */
export function ChangeMember({ user, mine, onDone, onCancel }: { user: Member; mine: Permission[]; onDone: () => void; onCancel: () => void }) {
  const [role, setRole] = useState<'admin' | 'member'>(user.role === 'admin' ? 'admin' : 'member');
  const [canSend, setCanSend] = useState(user.can_send);
  const [canBilling, setCanBilling] = useState(user.can_billing);
  const mayAdmin = (['read', 'send', 'billing', 'manage'] as const).every((p) => mine.includes(p));
  const save = useMutation({
    mutationFn: () => PATCH('/team/{memberId}', { params: { path: { memberId: user.id } }, body: role === 'admin' ? { role } : { role, can_send: canSend, can_billing: canBilling } }),
    onSuccess: onDone,
  });
  const next = { role, can_send: role === 'admin' || canSend, can_billing: role === 'admin' || canBilling };
  return (
    <Card title={`Change what ${user.email} can do`}>
      <div role="group" aria-label={`Change what ${user.email} can do`} className="grid gap-3 sm:grid-cols-2">
        <Select label="Role" value={role} onChange={(e) => setRole(e.target.value as 'admin' | 'member')}
          hint={mayAdmin ? undefined : 'Only someone who can do everything can make an admin'}>
          <option value="member">Member</option>
          <option value="admin" disabled={!mayAdmin}>Admin</option>
        </Select>
        {role === 'member' && (
          <div className="space-y-2">
            <Checkbox label={`May send messages${mine.includes('send') ? '' : ' (you cannot change this: you cannot send)'}`}
              checked={canSend} disabled={!mine.includes('send')} onChange={(e) => setCanSend(e.target.checked)} />
            <Checkbox label={`May move credits and buy numbers${mine.includes('billing') ? '' : ' (you cannot change this: you do not handle billing)'}`}
              checked={canBilling} disabled={!mine.includes('billing')} onChange={(e) => setCanBilling(e.target.checked)} />
          </div>
        )}
      </div>
      <p className="mt-3 text-sm text-slate-700">They will be able to: {abilities(next).toLowerCase()}. Their API keys lose at once whatever they no longer may do.</p>
      <div className="mt-3 flex gap-2">
        <Button onClick={() => save.mutate()} disabled={save.isPending}>Save</Button>
        <Button kind="secondary" onClick={onCancel}>Cancel</Button>
      </div>
      <ErrorText error={save.error} />
    </Card>
  );
}

/** The removal dialog: it says which of the member's API keys stop working with them. */
export function RemoveMember({ user, onDone, onCancel }: { user: Member; onDone: () => void; onCancel: () => void }) {
  const keys = useQuery({ queryKey: ['keys'], queryFn: () => GET('/keys') });
  const theirs = (keys.data?.keys ?? []).filter((k) => k.created_by_user === user.id && !k.revoked_at);
  const remove = useMutation({ mutationFn: () => DELETE('/team/{memberId}', { params: { path: { memberId: user.id } } }), onSuccess: onDone });
  return (
    <Card title={`Remove ${user.email}?`}>
      <div role="dialog" aria-label={`Remove ${user.email}`} className="space-y-3">
        <p className="text-sm">They are signed out at once and can no longer sign in.</p>
        {keys.isPending ? <Loading /> : theirs.length === 0
          ? <p className="text-sm">They have made no API keys that still work.</p>
          : (
            <div className="text-sm">
              <p>These API keys they made stop working too:</p>
              <ul className="ml-5 list-disc">{theirs.map((k) => <li key={k.id}>{k.name} ({k.prefix}…)</li>)}</ul>
            </div>
          )}
        <div className="flex gap-2">
          <Button kind="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>Remove{theirs.length > 0 ? ` and revoke ${theirs.length} key${theirs.length === 1 ? '' : 's'}` : ''}</Button>
          <Button kind="secondary" onClick={onCancel}>Cancel</Button>
        </div>
        <ErrorText error={remove.error} />
      </div>
    </Card>
  );
}

/** The confirmation before turning off a member's second factor (they lost their phone and their recovery codes). */
export function ResetTwoFactor({ user, onDone, onCancel }: { user: { id: string; email: string }; onDone: () => void; onCancel: () => void }) {
  const reset = useMutation({ mutationFn: () => DELETE('/team/{memberId}/two-factor', { params: { path: { memberId: user.id } } }), onSuccess: onDone });
  return (
    <Card title={`Reset ${user.email}'s two-factor authentication?`}>
      <div role="dialog" aria-label={`Reset two-factor authentication of ${user.email}`} className="space-y-3">
        <p className="text-sm">
          Do this when they have lost their phone and their recovery codes. Their authenticator app stops working for
          Tasman and their recovery codes are deleted; they then sign in with their password alone and set it up again
          on the Security page. Make sure it is really them asking.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button kind="danger" onClick={() => reset.mutate()} disabled={reset.isPending}>Reset two-factor authentication</Button>
          <Button kind="secondary" onClick={onCancel}>Cancel</Button>
        </div>
        <ErrorText error={reset.error} retry={() => reset.mutate()} />
      </div>
    </Card>
  );
}
