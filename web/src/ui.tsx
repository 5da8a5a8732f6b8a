import { useId, useMemo, useState, type ReactNode, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table';
import { Link, useLocation } from 'react-router';
import { explain } from './lib/explain.ts';

export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby="page-title" className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 id="page-title" className="text-2xl font-semibold">{title}</h1>
        {actions}
      </div>
      {children}
    </section>
  );
}

export function Card({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      {title && <h2 className="mb-3 text-lg font-semibold">{title}</h2>}
      {children}
    </div>
  );
}

type FieldProps = { label: string; error?: string | undefined; hint?: string };

function FieldShell({ id, label, error, hint, children }: FieldProps & { id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      {children}
      {hint && <p id={`${id}-hint`} className="text-xs text-slate-600">{hint}</p>}
      {error && <p id={`${id}-error`} role="alert" className="text-sm text-red-700">{error}</p>}
    </div>
  );
}

const control = 'rounded-md border border-slate-400 bg-white px-3 py-2 text-base';
const described = (id: string, { error, hint }: FieldProps) =>
  [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;

export function Input({ label, error, hint, ...rest }: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <input id={id} className={control} aria-invalid={error ? true : undefined} aria-describedby={described(id, { label, error, ...(hint ? { hint } : {}) })} {...rest} />
    </FieldShell>
  );
}

export function TextArea({ label, error, hint, ...rest }: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <textarea id={id} className={control} aria-invalid={error ? true : undefined} aria-describedby={described(id, { label, error, ...(hint ? { hint } : {}) })} {...rest} />
    </FieldShell>
  );
}

export function Select({ label, error, hint, children, ...rest }: FieldProps & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} error={error} {...(hint ? { hint } : {})}>
      <select id={id} className={control} aria-describedby={described(id, { label, error, ...(hint ? { hint } : {}) })} {...rest}>{children}</select>
    </FieldShell>
  );
}

export function Checkbox({ label, ...rest }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="checkbox" className="h-5 w-5" {...rest} />
      <label htmlFor={id} className="text-sm">{label}</label>
    </div>
  );
}

export function Button({ kind = 'primary', className = '', ...rest }: { kind?: 'primary' | 'secondary' | 'danger' } & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  const look = {
    primary: 'bg-blue-700 text-white hover:bg-blue-800',
    secondary: 'border border-slate-400 bg-white text-slate-900 hover:bg-slate-100',
    danger: 'bg-red-700 text-white hover:bg-red-800',
  }[kind];
  return <button type="button" className={`rounded-md px-4 py-2 text-sm font-semibold disabled:opacity-60 ${look} ${className}`} {...rest} />;
}

/**
 * A failed call in words with a way out (lib/explain.ts): "Try again" (the caller's retry, else a reload) when the
 * fault is the server's or the network's, "Sign in again" when the session has ended. Field errors are shown next
 * to their control by the form itself.
 */
export function ErrorText({ error, retry }: { error: unknown; retry?: () => unknown }) {
  const { pathname } = useLocation();
  if (!error) return null;
  const { message, wayOut } = explain(error);
  // The operator console signs in on its own page.
  const signIn = pathname.startsWith('/operator') ? '/operator' : '/login';
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800">
      <p className="flex-1">{message}</p>
      {wayOut === 'retry' && (
        <Button kind="secondary" onClick={() => { if (retry) void retry(); else window.location.reload(); }}>{retry ? 'Try again' : 'Reload the page'}</Button>
      )}
      {wayOut === 'sign-in' && <Link className="font-semibold underline" to={signIn} state={{ from: pathname }}>Sign in again</Link>}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return <div role="status" className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900">{children}</div>;
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed border-slate-300 p-6 text-center text-slate-600">{children}</p>;
}

export const Loading = () => <p role="status" className="text-slate-600">Loading…</p>;

// Column helpers type each column by its value; a list of them only fits ColumnDef<T, any> (TanStack's own advice).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Columns<T> = Array<ColumnDef<T, any>>;

/**
 * Lists: a TanStack table with a caption for screen readers, scrolling sideways on a phone, and an empty state.
 * `pageSize` pages a list the API returns whole (keys, team, sub-accounts) in the browser; lists the API pages
 * pass their own Pager instead.
 */
export function DataTable<T>({ data, columns, caption, empty, pageSize }: { data: T[]; columns: Columns<T>; caption: string; empty: ReactNode; pageSize?: number }) {
  const [page, setPage] = useState(0);
  const last = pageSize ? Math.max(0, Math.ceil(data.length / pageSize) - 1) : 0;
  const shown = Math.min(page, last);
  // TanStack rebuilds its rows whenever `data` is a new array: the slice must keep its identity between renders.
  const rows = useMemo(() => (pageSize ? data.slice(shown * pageSize, (shown + 1) * pageSize) : data), [data, pageSize, shown]);
  const table = useReactTable({ data: rows, columns, getCoreRowModel: getCoreRowModel() });
  if (data.length === 0) return <Empty>{empty}</Empty>;
  // Focusable, so a keyboard can scroll a wide table sideways on a phone.
  return (
    <>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={caption}>
        <table className="min-w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-100">
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>{hg.headers.map((h) => <th key={h.id} scope="col" className="px-3 py-2 font-semibold">{flexRender(h.column.columnDef.header, h.getContext())}</th>)}</tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id} className="border-t border-slate-200">
                {row.getVisibleCells().map((cell) => <td key={cell.id} className="px-3 py-2 align-top">{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pageSize !== undefined && <div className="mt-2"><Pager page={shown} hasNext={shown < last} onPage={setPage} /></div>}
    </>
  );
}

export function Pager({ page, hasNext, onPage }: { page: number; hasNext: boolean; onPage: (page: number) => void }) {
  if (page === 0 && !hasNext) return null;
  return (
    <nav aria-label="Pages" className="flex items-center gap-3">
      <Button kind="secondary" disabled={page === 0} onClick={() => onPage(page - 1)}>Previous</Button>
      <span className="text-sm">Page {page + 1}</span>
      <Button kind="secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>Next</Button>
    </nav>
  );
}

const statusLook: Record<string, string> = {
  delivered: 'bg-green-100 text-green-900', failed: 'bg-red-100 text-red-900', sent: 'bg-blue-100 text-blue-900',
  queued: 'bg-slate-200 text-slate-900', scheduled: 'bg-amber-100 text-amber-900', cancelled: 'bg-slate-200 text-slate-900',
  sending: 'bg-blue-100 text-blue-900', completed: 'bg-green-100 text-green-900', active: 'bg-green-100 text-green-900',
  suspended: 'bg-amber-100 text-amber-900', closed: 'bg-slate-200 text-slate-900',
  requested: 'bg-amber-100 text-amber-900', approved: 'bg-green-100 text-green-900', rejected: 'bg-red-100 text-red-900',
};
export const Status = ({ value }: { value: string }) => (
  <span className={`rounded px-2 py-0.5 text-xs font-semibold ${statusLook[value] ?? 'bg-slate-200 text-slate-900'}`}>{value}</span>
);

/** A secret shown once, with a copy button. */
export function Secret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-semibold">{label}: shown once, copy it now.</p>
      <code data-testid="secret" className="block break-all rounded bg-white p-2 text-sm">{value}</code>
      <Button kind="secondary" onClick={() => { void navigator.clipboard?.writeText(value).then(() => setCopied(true)); }}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}

export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="text-2xl font-semibold">{value}</p>
    </div>
  );
}
