import { AppError } from '../../platform/errors.ts';
import { checkMerge, fieldsOf, missingFields, type MergeCheck, type MergeData } from './merge.ts';

/** A recipient of a batch missing some of the fields its text uses (they go out as the empty string). */
export interface MissingMergeFields {
  phone: string;
  fields: string[];
}

const braces = (keys: readonly string[]) => keys.map((k) => `{{${k}}}`).join(', ');

function unknownMergeField(check: MergeCheck, whose: string): AppError {
  const [first] = check.unknown;
  return new AppError(
    'unknown_merge_field',
    `The message uses {{${first}}}, which ${whose} fills; the known fields are ${braces(check.known)}`,
    { field: first, fields: check.unknown, known: check.known },
  );
}

/**
 * A single send has no merge data: only the service's fields can be filled, so any other `{{x}}` is a typo that
 * would go out as the empty string. A text without `{{` (nearly every send) costs one substring search.
 */
export function assertSingleMerge(template: string): void {
  if (!template.includes('{{')) return;
  const check = checkMerge(template, new Set());
  if (check.unknown.length > 0) throw unknownMergeField(check, 'a single send has no data to fill (only the service fields are filled)');
}

/** A batch's placeholders against its recipients' data: 400 for one nothing fills; the fields it uses otherwise. */
export function batchMerge(template: string, data: Iterable<MergeData | undefined>) {
  const fields = fieldsOf(data);
  const check = checkMerge(template, fields);
  if (check.unknown.length > 0) throw unknownMergeField(check, 'no recipient\'s data');
  return { fields, used: check.used, missing: (d: MergeData | undefined) => (check.used.length === 0 ? [] : missingFields(check.used, d)) };
}

/** strict_merge_fields: a batch where any recipient lacks a field its text uses is refused, naming them. */
export function assertNoneMissing(missing: readonly MissingMergeFields[]): void {
  if (missing.length === 0) return;
  const [first] = missing;
  const more = missing.length > 1 ? ` and ${missing.length - 1} more recipient(s)` : '';
  throw new AppError(
    'merge_field_missing',
    `${first!.phone} has no value for ${braces(first!.fields)}${more}; strict_merge_fields refuses a batch with missing fields`,
    { recipients: missing },
  );
}
