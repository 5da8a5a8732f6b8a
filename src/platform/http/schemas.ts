import { Type } from '@fastify/type-provider-typebox';
import { UUID_PATTERN } from '../ids.ts';

export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN });
export const Timestamp = Type.String({ format: 'date-time' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const ErrorBody = Type.Object({
  error: Type.String(),
  code: Type.String(),
}, { additionalProperties: true, description: 'Every error: a sentence for a person and a stable snake_case code' });

export const IdParams = Type.Object({ id: Uuid });

export const Ok = Type.Object({ ok: Type.Boolean() });

/** A name that is not blank once trimmed (`pattern` needs one non-space character). */
export const NonBlankName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });

/** Paging: a page of at most 100 rows from at most a million rows in (a deeper offset is a bug, not a page). */
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 });

/** Lets a bodyless POST (no Content-Type, no body) validate as `{}` against an all-optional body schema. */
export const emptyBodyIsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};
