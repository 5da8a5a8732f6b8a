import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errorStatus, type ErrorCode } from '../errors.ts';
import { findInputProblem } from './input-guard.ts';
import { isDatabaseUnavailable, isTransientConflict, sqlStateOf } from '../db/sql-state.ts';

// `code` is an ErrorCode: the union in platform/errors.ts is closed, so every code this handler can emit is
// declared there with its status.
interface ErrorBody {
  error: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

export function fieldOf(instancePath: string, params: Record<string, unknown>, context: string | undefined): string {
  const base = instancePath.replace(/^\//, '').replace(/\//g, '.');
  const missing = typeof params.missingProperty === 'string' ? params.missingProperty : '';
  const field = [base, missing].filter(Boolean).join('.');
  return field || context || 'body';
}

// Postgres constraint errors that reach here mean a race the service did not turn into an AppError itself.
function fromDatabase(err: unknown): AppError | null {
  // Drizzle wraps the driver's error (DrizzleQueryError): sqlStateOf looks through `.cause`.
  const code = sqlStateOf(err);
  if (code === '23505') return new AppError('conflict', 'A record with these values already exists');
  if (code === '22P02' || code === '22003') return new AppError('validation_failed', 'A value is out of range');
  // Text PostgreSQL cannot store (NUL, invalid UTF-8): the input guard refuses it first; this is the backstop.
  if (code === '22021' || code === '22P05') return new AppError('validation_failed', 'A value contains characters that cannot be stored');
  // The connection was reset or the server is failing over: nothing was answered 2xx, so a retry (with the same
  // Idempotency-Key for a send) is safe.
  if (isDatabaseUnavailable(err)) return new AppError('service_unavailable', 'The database is unavailable; try again shortly');
  // A deadlock or serialization failure rolled the request's transaction back whole: the same request (with the
  // same Idempotency-Key for a send) can simply be tried again.
  if (isTransientConflict(err)) return new AppError('service_unavailable', 'The request met a concurrent change and was not applied; try again');
  return null;
}

function toBody(err: FastifyError & { validation?: unknown[]; validationContext?: string }): { status: number; body: ErrorBody } {
  if (err instanceof AppError) {
    return { status: err.status, body: { error: err.message, code: err.code, ...err.extra } };
  }
  if (Array.isArray(err.validation)) {
    const details = (err.validation as Array<{ instancePath: string; params: Record<string, unknown>; message?: string }>)
      .map((v) => ({ field: fieldOf(v.instancePath, v.params ?? {}, err.validationContext), message: v.message ?? 'is invalid' }));
    const first = details[0];
    const error = first ? `Invalid ${err.validationContext ?? 'request'}: ${first.field} ${first.message}` : 'Invalid request';
    return { status: 400, body: { error, code: 'validation_failed', details } };
  }
  const db = fromDatabase(err);
  if (db) return { status: db.status, body: { error: db.message, code: db.code } };
  const byFastifyCode: Record<string, ErrorCode> = {
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
    FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
    FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
  };
  const mapped = err.code ? byFastifyCode[err.code] : undefined;
  if (mapped) return { status: errorStatus[mapped], body: { error: err.message, code: mapped } };
  if (err instanceof SyntaxError || err.statusCode === 400) {
    return { status: 400, body: { error: 'The request body is not valid JSON', code: 'invalid_json' } };
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    // Another client error Fastify raised (rare: its own 4xx status is kept).
    return { status: err.statusCode, body: { error: err.message, code: 'bad_request' } };
  }
  return { status: 500, body: { error: 'Internal server error', code: 'internal_error' } };
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const { status, body } = toBody(err);
    if (status >= 500) request.log.error({ err }, 'request failed');
    if (status === 429 && err instanceof AppError && typeof err.extra.retry_after === 'number') {
      reply.header('retry-after', String(err.extra.retry_after));
    }
    // Unavailable for now (a database reset or failover, the workers process restarting): worth a retry soon.
    if (status === 503) reply.header('retry-after', '1');
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const body: ErrorBody = { error: `No route ${request.method} ${request.url.split('?')[0]}`, code: 'route_not_found' };
    return reply.status(404).send(body);
  });
}

/**
 * Fastify's own refusals before any route runs (a path that is not valid percent-encoding, a path parameter over
 * the router's length limit), answered with the error body and a code of the union, `bad_request`, at Fastify's
 * status (400, 414). Without it Fastify answers its own body with an FST_ERR_… code outside the union.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const body: ErrorBody = { error: err.message, code: 'bad_request' };
  void reply.status(err.statusCode ?? 400).header('x-request-id', request.id).send(body);
}

/** Refuses, on every route, input no field may carry (input-guard.ts), before validation and before any work. */
export function guardInput(app: FastifyInstance): void {
  // Callback-style: every request runs it, and an async hook costs a promise and a turn of the queue each.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [context, value] of [['params', request.params], ['querystring', request.query], ['body', request.body]] as const) {
      const problem = findInputProblem(value);
      if (!problem) continue;
      const field = problem.field || context;
      done(new AppError('validation_failed', `Invalid ${context}: ${field} ${problem.message}`, { details: [{ field, message: problem.message }] }));
      return;
    }
    done();
  });
}
