import { operations, type TasmanApi } from './operations.ts';

/** An error answer of the REST API, carried to the agent as it came: `{error, code, ...}` and the status. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: { error: string; code: string; [extra: string]: unknown };

  constructor(status: number, body: { error: string; code: string; [extra: string]: unknown }) {
    super(body.error);
    this.status = status;
    this.body = body;
  }
}

/**
 * The operations over the REST API of any Tasman (for `tasman mcp`, stdio): the API applies every rule, scopes and
 * rate limits included. Each request names its tool in X-Tasman-Tool so the server's request log shows it.
 */
export function createHttpApi(deps: { baseUrl: string; apiKey: string; fetch?: typeof fetch }): TasmanApi {
  const doFetch = deps.fetch ?? fetch;
  const base = deps.baseUrl.replace(/\/+$/, '');
  return async (op, request, tool) => {
    const { method, path } = operations[op];
    const filled = path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined && v !== null) search.set(k, String(v));
    const qs = search.size > 0 ? `?${search}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${deps.apiKey}`, 'x-tasman-tool': tool, accept: 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    let res: Response;
    try {
      res = await doFetch(`${base}${filled}${qs}`, {
        method, headers, ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      });
    } catch (err) {
      throw new ApiError(503, { error: `Tasman at ${base} could not be reached: ${(err as Error).message}`, code: 'service_unavailable' });
    }
    const text = await res.text();
    let parsed: unknown;
    try { parsed = text === '' ? {} : JSON.parse(text); } catch { parsed = null; }
    if (res.ok && parsed !== null) return parsed;
    const body = parsed as { error?: unknown; code?: unknown } | null;
    if (body && typeof body.error === 'string' && typeof body.code === 'string') throw new ApiError(res.status, body as ApiError['body']);
    throw new ApiError(res.status, { error: `Unexpected answer from Tasman (HTTP ${res.status})`, code: 'internal_error' });
  };
}
