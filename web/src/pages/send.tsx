import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, GET, POST, type Body, type Res } from '../lib/api.ts';
import { parseCsv } from '../lib/format.ts';
import { dateTime } from '../lib/format.ts';
import type { SessionInfo } from '../session.ts';
import { useAccountSettings } from '../settings.ts';
import { Button, Card, Checkbox, ErrorText, Input, Notice, Page, Select, TextArea } from '../ui.tsx';
import { NO_OPTIONS, optionsBody, SendOptionsFields, type SendOptions } from './send-options.tsx';

type Recipient = NonNullable<Body<'/send-batch'>['recipients']>[number];
type Preview = Res<'/send/preview', 'post'>;
type BatchPreview = Res<'/send-batch/preview', 'post'>;

/** What a message costs and what the carrier carries, in words: "1 credit, sent as 2 SMS (Unicode)". */
const costInWords = (credits: number, segments: number, encoding?: Preview['encoding']) =>
  `${credits} credit${credits === 1 ? '' : 's'}, sent as ${segments} SMS${encoding === 'ucs2' ? ' (Unicode)' : ''}`;

const PHONE_COLUMNS = ['phone', 'mobile', 'number', 'to'];

/** A CSV whose first row names the columns: the phone column (phone, mobile, number or to) and merge fields. */
function recipientsFromCsv(text: string): { recipients: Recipient[]; fields: string[]; error?: string } {
  const [header, ...rows] = parseCsv(text);
  if (!header) return { recipients: [], fields: [], error: 'The file is empty' };
  const names = header.map((h) => h.trim());
  const phoneAt = names.findIndex((h) => PHONE_COLUMNS.includes(h.toLowerCase()));
  if (phoneAt < 0) return { recipients: [], fields: [], error: 'The first row must name a phone column (phone, mobile, number or to)' };
  const fields = names.filter((_, i) => i !== phoneAt);
  const recipients = rows.map((r) => ({
    phone: (r[phoneAt] ?? '').trim(),
    merge_data: Object.fromEntries(names.map((n, i) => [n, (r[i] ?? '').trim()]).filter((_, i) => i !== phoneAt)),
  }));
  return { recipients, fields };
}

const splitNumbers = (text: string) => text.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean);

export default function SendPage({ session }: { session: SessionInfo }) {
  const qc = useQueryClient();
  const [to, setTo] = useState('');
  const [csv, setCsv] = useState<{ name: string; recipients: Recipient[]; fields: string[] } | null>(null);
  const [csvError, setCsvError] = useState<string>();
  const [message, setMessage] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [number, setNumber] = useState('');
  const [senderId, setSenderId] = useState('');
  const sender = senderId.trim() || number;
  const [campaign, setCampaign] = useState('');
  const [optOutLink, setOptOutLink] = useState(false);
  const [preview, setPreview] = useState<{ single?: Preview; batch?: BatchPreview; error?: ApiError } | null>(null);
  const [options, setOptions] = useState<SendOptions>(NO_OPTIONS);
  const [optionsError, setOptionsError] = useState<string>();
  const account = useAccountSettings();
  const [result, setResult] = useState<{ messageId?: string; sendAt?: string; batch?: Res<'/send-batch', 'post'> } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const numbers = useQuery({ queryKey: ['numbers'], queryFn: () => GET('/numbers') });
  const senders = useQuery({ queryKey: ['senders'], queryFn: () => GET('/senders') });
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => GET('/templates') });
  // A saved template is sent by its id: the API merges its text as it would the message's.
  const template = templates.data?.templates.find((t) => t.id === templateId);

  const recipients: Recipient[] = useMemo(() => csv ? csv.recipients : splitNumbers(to), [csv, to]);
  const text = template ? template.body : optOutLink && !message.includes('{{OptOutLink}}') ? `${message} {{OptOutLink}}`.trim() : message;
  const tracking = options.linkTracking;
  // The preview shortens links too when tracking is on, so its parts and credits are what the send will cost.
  const body = useMemo(() => ({
    ...(template ? { template_id: template.id } : { message: text }),
    ...(sender ? { sender } : {}), ...(campaign ? { campaign } : {}), ...(tracking !== null ? { link_tracking: tracking } : {}),
  }), [template, text, sender, campaign, tracking]);

  // Live preview: what each recipient gets, its encoding, parts and credits, and who would be refused.
  useEffect(() => {
    if (recipients.length === 0 || text.trim() === '') { setPreview(null); return; }
    const timer = setTimeout(() => {
      const request = recipients.length === 1 && typeof recipients[0] === 'string'
        ? POST('/send/preview', { body: { ...body, to: recipients[0] } }).then((single) => setPreview({ single }))
        : POST('/send-batch/preview', { body: { ...body, recipients: recipients.slice(0, 1000) } }).then((batch) => setPreview({ batch }));
      request.catch((err: unknown) => setPreview({ error: err instanceof ApiError ? err : new ApiError(0, 'error', String(err)) }));
    }, 300);
    return () => clearTimeout(timer);
  }, [recipients, body, text]);

  const onFile = async (file: File | undefined) => {
    setCsvError(undefined);
    if (!file) { setCsv(null); return; }
    const parsed = recipientsFromCsv(await file.text());
    if (parsed.error) { setCsvError(parsed.error); setCsv(null); return; }
    setCsv({ name: file.name, recipients: parsed.recipients, fields: parsed.fields });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setResult(null);
    const extra = optionsBody(options, account.settings);
    setOptionsError(extra.error);
    if (extra.error) return;
    const sendAt = extra.body.send_at;
    setBusy(true);
    try {
      if (recipients.length === 1 && typeof recipients[0] === 'string') {
        const r = await POST('/send', { body: { ...body, ...extra.body, to: recipients[0] } });
        setResult({ messageId: r.message_id, ...(sendAt ? { sendAt } : {}) });
      } else {
        setResult({ batch: await POST('/send-batch', { body: { ...body, ...extra.body, recipients } }), ...(sendAt ? { sendAt } : {}) });
      }
      void qc.invalidateQueries({ queryKey: ['balance'] });
      void qc.invalidateQueries({ queryKey: ['messages'] });
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'error', String(err)));
    } finally {
      setBusy(false);
    }
  };

  const toError = error?.code === 'invalid_number' || error?.code === 'recipient_opted_out' ? error.message
    : preview?.error?.code === 'invalid_number' ? preview.error.message : error?.forField('to');
  const messageError = ['message_too_long', 'message_empty'].includes(error?.code ?? '') ? error!.message
    : ['message_too_long', 'message_empty'].includes(preview?.error?.code ?? '') ? preview!.error!.message : error?.forField('message');
  const senderError = error?.code === 'sender_not_allowed' ? error.message : undefined;
  const whenError = optionsError ?? (error?.code === 'invalid_send_at' ? error.message : undefined);
  const generalError = error && !toError && !messageError && !senderError && !whenError ? error : null;
  const zone = account.settings.time_zone;

  if (!session.user.can_send) {
    return <Page title="Send"><ErrorText error="You do not have permission to send messages. Ask an admin or the account's owner to let you send." /></Page>;
  }
  return (
    <Page title="Send">
      <form onSubmit={(e) => void submit(e)} className="grid gap-5 lg:grid-cols-2" noValidate>
        <div className="space-y-4">
          <TextArea label="To" rows={3} value={to} disabled={!!csv} onChange={(e) => setTo(e.target.value)} error={toError}
            hint={`One mobile number, or several separated by new lines or commas: +61…, +64…, or written locally as in ${account.settings.country === 'NZ' ? 'New Zealand (02…)' : 'Australia (04…)'}, this account's country (Settings)`} />
          <Input label="Or upload a CSV" type="file" accept=".csv,text/csv" onChange={(e) => void onFile(e.target.files?.[0])} error={csvError}
            hint="First row: a phone column and any merge fields, used as {{name}} in the message" />
          {csv && <p className="text-sm">{csv.name}: {csv.recipients.length} recipients; merge fields: {csv.fields.map((f) => `{{${f}}}`).join(', ') || 'none'}</p>}
          {!!templates.data?.templates.length && (
            <Select label="Template" value={templateId} onChange={(e) => setTemplateId(e.target.value)} hint="A saved message (Templates); its text is sent as it is now">
              <option value="">None: write the message below</option>
              {templates.data.templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
            </Select>
          )}
          <TextArea label="Message" rows={5} value={template ? template.body : message} readOnly={!!template} onChange={(e) => setMessage(e.target.value)} error={messageError}
            hint={template ? `The template ${template.name}: ${[...text].length} characters` : `${[...text].length} characters`} />
          {!template && <Checkbox label="Add an opt-out link ({{OptOutLink}})" checked={optOutLink} onChange={(e) => setOptOutLink(e.target.checked)} />}
          <Select label="Sender" value={number} onChange={(e) => setNumber(e.target.value)} error={senderId ? undefined : senderError}>
            <option value="">Default (your first number, else the shared number)</option>
            {!!numbers.data?.numbers.length && <optgroup label="Your numbers">{numbers.data.numbers.map((n) => <option key={n.number} value={n.number}>{n.number}</option>)}</optgroup>}
            {!!senders.data?.sender_ids.length && <optgroup label="Your Sender IDs">{senders.data.sender_ids.map((id) => <option key={id} value={id}>{id}</option>)}</optgroup>}
          </Select>
          <Input label="Sender ID (optional)" value={senderId} maxLength={11} onChange={(e) => setSenderId(e.target.value)} error={senderId ? senderError : undefined}
            hint="Type a registered Sender ID such as HarbourCafe to use it instead of the choice above" />
          <Input label="Campaign name (optional)" value={campaign} maxLength={200} onChange={(e) => setCampaign(e.target.value)} />
          <SendOptionsFields value={options} onChange={setOptions} settings={account.settings} error={whenError} />
          {generalError && <ErrorText error={generalError} />}
          <Button type="submit" disabled={busy || recipients.length === 0}>Send</Button>
          {result?.messageId && (result.sendAt
            ? <Notice>Scheduled for {dateTime(result.sendAt, zone)} ({zone}). <Link className="underline" to={`/messages/${result.messageId}`}>See it, or cancel it</Link>.</Notice>
            : <Notice>Sent. <Link className="underline" to={`/messages/${result.messageId}`}>Follow its delivery</Link>.</Notice>)}
          {result?.batch && (
            <Notice>
              {result.sendAt ? `Scheduled ${result.batch.recipients_queued} messages for ${dateTime(result.sendAt, zone)} (${zone})` : `Queued ${result.batch.recipients_queued} messages`}: {costInWords(result.batch.credits_used, result.batch.segments)}.
              {result.batch.invalid_details.length > 0 && ` Not sent: ${result.batch.invalid_details.map((i) => `${i.number} (${i.reason})`).join('; ')}.`}
              {result.batch.opted_out_count > 0 && ` Opted out (not sent): ${result.batch.opted_out_count}.`}
              {result.batch.duplicates_removed > 0 && ` Duplicates removed: ${result.batch.duplicates_removed}.`}
              {' '}<Link className="underline" to={`/campaigns/${result.batch.campaign_id}`}>See the campaign</Link>.
            </Notice>
          )}
        </div>
        <PreviewPanel preview={preview} />
      </form>
    </Page>
  );
}

function PreviewPanel({ preview }: { preview: { single?: Preview; batch?: BatchPreview; error?: ApiError } | null }) {
  return (
    <div aria-live="polite">
      <Card title="Preview">
        {!preview && <p className="text-sm text-slate-600">Enter a recipient and a message to see what will be sent and what it costs.</p>}
        {preview?.error && <p className="text-sm text-red-800">{preview.error.message}</p>}
        {preview?.single && (
          <div className="space-y-2 text-sm">
            <p className="whitespace-pre-wrap rounded bg-slate-100 p-3">{preview.single.text}</p>
            <p>To {preview.single.phone} · {costInWords(preview.single.credits, preview.single.segments, preview.single.encoding)}</p>
            {preview.single.opted_out && <p className="font-semibold text-red-800">This number has opted out: it will not be sent.</p>}
          </div>
        )}
        {preview?.batch && (
          <div className="space-y-2 text-sm">
            <p><strong>{preview.batch.recipients.length}</strong> recipients · {costInWords(preview.batch.total_credits, preview.batch.total_segments)} in total</p>
            {preview.batch.invalid_details.length > 0 && (
              <div className="text-red-800">
                <p>Not sent, and not charged:</p>
                <ul className="list-disc pl-5">{preview.batch.invalid_details.map((i) => <li key={i.number}>{i.number}: {i.reason}</li>)}</ul>
              </div>
            )}
            {preview.batch.opted_out_count > 0 && <p className="text-red-800">Opted out (not sent): {preview.batch.opted_out_count}</p>}
            {preview.batch.duplicates_removed > 0 && <p>Duplicates removed: {preview.batch.duplicates_removed}</p>}
            {preview.batch.missing_merge_fields.length > 0 && (
              <div className="text-amber-900">
                <p>Sent with an empty field (these recipients have no value for it):</p>
                <ul className="list-disc pl-5">
                  {preview.batch.missing_merge_fields.slice(0, 20).map((m) => <li key={m.phone}>{m.phone}: {m.fields.map((f) => `{{${f}}}`).join(', ')}</li>)}
                </ul>
              </div>
            )}
            <ul className="max-h-80 space-y-2 overflow-y-auto">
              {preview.batch.recipients.slice(0, 20).map((r) => (
                <li key={r.phone} className="rounded bg-slate-100 p-2">
                  <p className="text-xs text-slate-700">{r.phone} · {costInWords(r.credits, r.segments, r.encoding)}</p>
                  <p className="whitespace-pre-wrap">{r.text}</p>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>
    </div>
  );
}
