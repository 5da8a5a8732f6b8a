import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { SettingsService } from './settings.service.ts';
import { SettingsResponse, SettingsUpdate, SettingsUpdateResult, TwoFactorPolicy } from './settings.schemas.ts';

const SETTINGS_EXAMPLE = { quiet_hours: { start: '21:00', end: '08:00' }, time_zone: 'Australia/Sydney', link_tracking: true, country: 'AU', low_balance_threshold: 500 };

const tags = ['Account'];

/** The services these routes call, and nothing else. */
export type SettingsRoutesDeps = { settings: SettingsService };

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRoutesDeps> = async (app, { settings }) => {
  app.get('/settings', {
    config: { contract: { response: { settings: SETTINGS_EXAMPLE } }, scope: 'read' },
    schema: {
      tags, summary: 'The account\'s settings: quiet hours, time zone, link tracking, country, low-balance notice',
      description: 'The settings every send of the account follows unless it says otherwise: the quiet-hours window (messages due inside it are held until it ends, unless urgent), the time zone of its Australian recipients, whether links are tracked by default, the country local numbers are read in, and the balance below which the owner is emailed. Needs the read scope.',
      response: { 200: SettingsResponse },
    },
  }, async (request) => settings.get(request.actor));

  app.put('/settings', {
    config: { contract: { sample: { body: { quiet_hours: { start: '21:00', end: '08:00' }, link_tracking: true, low_balance_threshold: 500 } }, response: { ok: true, settings: SETTINGS_EXAMPLE } }, scope: 'manage' },
    schema: {
      tags,
      summary: 'Change the account\'s sending settings',
      description: 'Changes the settings given and answers them all as they now are; fields left out keep their value, and quiet_hours: null turns quiet hours off and low_balance_threshold: null the low-balance email. Applies to messages sent from now on and to scheduled ones when they fall due. An unknown time zone answers 400. Needs the manage scope. Idempotent.',
      body: SettingsUpdate,
      response: { 200: SettingsUpdateResult },
    },
  }, async (request) => settings.update(request.actor, request.body));

  app.get('/settings/two-factor', {
    config: { contract: { response: { required: true } }, scope: 'read' },
    schema: {
      tags: ['Team'], summary: 'Whether the team must use two-factor authentication',
      description: 'true when the owner requires every dashboard user to sign in with a second factor (an authenticator app). Needs the read scope.',
      response: { 200: TwoFactorPolicy },
    },
  }, async (request) => settings.twoFactorPolicy(request.actor));

  app.put('/settings/two-factor', {
    config: { contract: { sample: { body: { required: true } }, response: { required: true }, errors: ['conflict'] }, scope: 'owner' },
    schema: {
      tags: ['Team'], summary: 'Require two-factor authentication of the whole team (the owner only)',
      description: 'With required: true, every dashboard user of the account must sign in with a second factor: one who has none can, once signed in with the password, only set it up (GET/POST /two-factor…); every other route answers 403 two_factor_required until they have. API keys are not affected. The owner must have turned on their own first (409 conflict otherwise). Only the owner (403 permission_denied for other users; no API key holds the owner permission). Idempotent.',
      body: TwoFactorPolicy, response: { 200: TwoFactorPolicy },
    },
  }, async (request) => settings.requireTwoFactor(request.actor, request.body.required));
};
