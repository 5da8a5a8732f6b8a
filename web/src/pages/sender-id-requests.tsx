import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, GET, POST } from '../lib/api.ts';
import { When } from '../zone.tsx';
import { Button, ErrorText, Input, Notice, Status, TextArea } from '../ui.tsx';

/** Asking the operator for an alphanumeric Sender ID, and the answers so far (approved ones become usable senders). */
export function SenderIdRequests({ mayManage }: { mayManage: boolean }) {
  const qc = useQueryClient();
  const [senderId, setSenderId] = useState('');
  const [abn, setAbn] = useState('');
  const [use, setUse] = useState('');
  const requests = useQuery({ queryKey: ['sender-id-requests'], queryFn: () => GET('/sender-ids') });
  const ask = useMutation({
    mutationFn: () => POST('/sender-ids', { body: { sender_id: senderId.trim(), abn, use_description: use } }),
    onSuccess: () => { setSenderId(''); setUse(''); void qc.invalidateQueries({ queryKey: ['sender-id-requests'] }); },
  });
  const err = ask.error instanceof ApiError ? ask.error : null;
  const submit = (e: FormEvent) => { e.preventDefault(); ask.mutate(); };
  return (
    <div className="mt-4 space-y-3">
      <h3 className="font-semibold">Your requests</h3>
      <ErrorText error={requests.error} />
      {(requests.data?.requests.length ?? 0) === 0 ? <p className="text-sm text-slate-700">No Sender ID asked for yet.</p> : (
        <ul className="divide-y divide-slate-200" aria-label="Your Sender ID requests">
          {requests.data!.requests.map((r) => (
            <li key={r.id} className="py-2 text-sm">
              <span className="font-mono">{r.sender_id}</span> <Status value={r.status} /> · asked <When iso={r.created_at} />
              {r.status === 'rejected' && r.reason && <span className="block text-red-800">Rejected: {r.reason}</span>}
              {r.status === 'approved' && <span className="block">Approved: choose it as the sender on the Send page.</span>}
            </li>
          ))}
        </ul>
      )}
      {mayManage ? (
        <form onSubmit={submit} className="space-y-3" noValidate>
          <h3 className="font-semibold">Ask for a Sender ID</h3>
          <div className="grid gap-3 sm:grid-cols-2">
            <Input label="Sender ID" value={senderId} maxLength={11} onChange={(e) => setSenderId(e.target.value)} error={err?.forField('sender_id')}
              hint="3 to 11 letters, digits or spaces, with at least one letter" />
            <Input label="ABN" value={abn} inputMode="numeric" onChange={(e) => setAbn(e.target.value)} error={err?.forField('abn')} hint="The business it is registered to: 11 digits" />
          </div>
          <TextArea label="What you send as it" rows={2} value={use} onChange={(e) => setUse(e.target.value)} error={err?.forField('use_description')}
            hint="The operator reads this when reviewing the request" />
          <Button type="submit" disabled={ask.isPending || !senderId.trim() || !abn.trim() || !use.trim()}>Ask for it</Button>
          {err && !err.forField('sender_id') && !err.forField('abn') && !err.forField('use_description') && <ErrorText error={err} />}
          {ask.data && <Notice>Asked for {ask.data.sender_id}: the operator reviews it, and it appears above once approved.</Notice>}
        </form>
      ) : <p className="text-sm text-slate-700">Asking for a Sender ID needs the manage permission: ask an admin or the owner.</p>}
    </div>
  );
}
