import { Type } from 'typebox';
import type { TSchema } from '@fastify/type-provider-typebox';
import { UUID_PATTERN } from '../ids.ts';

/**
 * `schema` with a description of the field it stands for: shared schemas (an id, a timestamp) are declared once and
 * described where they are used. A description is documentation only: validation and serialisation ignore it.
 */
export const described = <T extends TSchema>(schema: T, description: string): T => ({ ...schema, description });

/** `schema` or null, described as `schema` is unless a description is given. */
export const nullable = <T extends TSchema>(schema: T, description = (schema as { description?: string }).description) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

export const Uuid = Type.String({ format: 'uuid', pattern: UUID_PATTERN, description: 'A UUID' });
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 date-time, UTC' });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()], { description: 'ISO 8601 date-time, UTC; null when it has not happened' });

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'What went wrong, in a sentence for a person (wording may change)' }),
  code: Type.String({ description: 'A stable snake_case code to branch on (the errors each operation may answer are listed under its responses)' }),
}, { additionalProperties: true, description: 'Every error: a sentence for a person and a stable snake_case code' });

export const IdParams = Type.Object({ id: described(Uuid, 'The id (UUID) of the resource the path names; another account\'s id answers 404') });

export const Ok = Type.Object({ ok: Type.Boolean({ description: 'true: the change is committed' }) }, { description: 'Done' });

/** A name that is not blank once trimmed (`pattern` needs one non-space character). */
export const NonBlankName = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'A name, 1 to 200 characters, not blank' });

/** Paging: a page of at most 100 rows from at most a million rows in (a deeper offset is a bug, not a page). */
export const Offset = Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Rows to skip before the page (default 0)' });

/** Lets a bodyless POST (no Content-Type, no body) validate as `{}` against an all-optional body schema. */
export const emptyBodyIsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** A permission (platform/permissions.ts), a key scope, and a team role, as the API names them. */
// Written out (a mapped array would lose the literal types); permissions.test.ts holds them to the lists.
export const ScopeName = Type.Union([Type.Literal('read'), Type.Literal('send'), Type.Literal('billing'), Type.Literal('manage')]);
export const PermissionName = Type.Union([...ScopeName.anyOf, Type.Literal('owner')]);
export const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member')], {
  description: 'owner (everything, one per account), admin (read, send, billing, manage), member (read, plus send and billing by its flags)',
});
