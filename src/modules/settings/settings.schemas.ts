import { Type } from 'typebox';
import type { Static } from '@fastify/type-provider-typebox';
import { CLOCK_TIME_PATTERN, DEFAULT_TIME_ZONE } from './account-settings.ts';

export const Country = Type.Union([Type.Literal('AU'), Type.Literal('NZ')], {
  description: 'The country a local number (with a leading 0) is read in: AU reads 04… as a mobile and 02 9999 1234 as a '
    + 'Sydney landline (refused); NZ reads 02… as a mobile. International forms (+61…, +64…, 614…) are read as written. Default AU.',
});

export const LowBalanceThreshold = Type.Integer({ minimum: 1, maximum: 100_000_000, description: 'Credits', examples: [500] });

const ClockTime = Type.String({ pattern: CLOCK_TIME_PATTERN, description: 'Local wall-clock time, HH:MM (24-hour)', examples: ['21:00'] });

export const QuietHoursSchema = Type.Object({
  start: ClockTime,
  end: ClockTime,
}, {
  additionalProperties: false,
  description: 'A nightly window in the recipient\'s local time: start inclusive, end exclusive; end before start spans midnight',
});

/** The settings fields, each optional: PUT /settings and PATCH /account/{id} change only what they name. */
export const settingsFields = {
  quiet_hours: Type.Optional(Type.Union([QuietHoursSchema, Type.Null()], {
    description: 'Messages that would arrive inside this window (recipient\'s local time) are held until it ends, '
      + 'unless sent with urgent: true. null turns quiet hours off (the default).',
  })),
  time_zone: Type.Optional(Type.String({
    minLength: 1, maxLength: 64,
    description: `IANA time zone of the account's Australian recipients (their numbers carry no state); New Zealand numbers always use Pacific/Auckland. Default ${DEFAULT_TIME_ZONE}.`,
    examples: ['Australia/Perth'],
  })),
  link_tracking: Type.Optional(Type.Boolean({ description: 'Default for link_tracking on sends that do not give it (default false)' })),
  country: Type.Optional(Country),
  low_balance_threshold: Type.Optional(Type.Union([LowBalanceThreshold, Type.Null()], {
    description: 'When a debit (a send, a batch, a credit move) takes the balance from at or above this many credits to below it, '
      + 'the account\'s owner is emailed once; it is sent again only after the balance has been at or above it again. null turns it off (the default).',
  })),
};

export const SettingsUpdate = Type.Object(settingsFields, { additionalProperties: false });
export type SettingsUpdate = Static<typeof SettingsUpdate>;

export const Settings = Type.Object({
  quiet_hours: Type.Union([QuietHoursSchema, Type.Null()], { description: 'The nightly quiet-hours window, or null when off' }),
  time_zone: Type.String({ description: 'IANA time zone of the account\'s Australian recipients' }),
  link_tracking: Type.Boolean({ description: 'Sends shorten and count links unless they say otherwise' }),
  country: Country,
  low_balance_threshold: Type.Union([LowBalanceThreshold, Type.Null()], { description: 'The balance below which a debit emails the owner, or null when off' }),
}, { description: 'The account\'s sending settings' });

export const SettingsResponse = Type.Object({ settings: Settings }, { description: 'The settings' });
export const SettingsUpdateResult = Type.Object({ ok: Type.Literal(true, { description: 'true: saved' }), settings: Settings }, { description: 'The settings as they now are' });

export const TwoFactorPolicy = Type.Object({
  required: Type.Boolean({
    description: 'true: every dashboard user must sign in with a second factor; one without it may only set it up (every other route answers 403 two_factor_required). API keys are not affected.',
  }),
}, { additionalProperties: false, description: 'Whether the team must use two-factor authentication' });
