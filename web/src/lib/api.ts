// The dashboard calls the same public API as every client. Signed in, the browser holds an HttpOnly session
// cookie; writes add the session's CSRF token in X-CSRF-Token.

export interface FieldError { field: string; message: string }

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: FieldError[];
  constructor(status: number, code: string, message: string, details: FieldError[] = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
  /** The message for one field, when the API named it; else undefined. */
  forField(field: string): string | undefined {
    return this.details.find((d) => d.field === field || d.field.endsWith(`.${field}`))?.message;
  }
}

let csrfToken = '';
export const setCsrf = (token: string) => { csrfToken = token; };

export type Query = Record<string, string | number | boolean | undefined | null>;

export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** `csrf` overrides the signed-in user's token (the operator console has a session of its own). */
export async function api<T>(method: string, path: string, body?: unknown, csrf = csrfToken): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrf;
  const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data: unknown = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const e = (data ?? {}) as { error?: string; code?: string; details?: FieldError[] };
    throw new ApiError(res.status, e.code ?? 'error', e.error ?? `Request failed (${res.status})`, e.details ?? []);
  }
  return data as T;
}

export const get = <T>(path: string, query?: Query) => api<T>('GET', withQuery(path, query));
export const post = <T>(path: string, body?: unknown) => api<T>('POST', path, body ?? {});
export const put = <T>(path: string, body?: unknown) => api<T>('PUT', path, body ?? {});
export const patch = <T>(path: string, body?: unknown) => api<T>('PATCH', path, body ?? {});
export const del = <T>(path: string) => api<T>('DELETE', path);
