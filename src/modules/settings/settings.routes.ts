import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Services } from '../../compose.ts';
import { SettingsResponse, SettingsUpdate, SettingsUpdateResult } from './settings.schemas.ts';

const tags = ['Account'];

export const settingsRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  app.get('/settings', {
    config: { contract: {}, scope: 'read' },
    schema: { tags, summary: 'The account\'s sending settings: quiet hours, time zone, link tracking', response: { 200: SettingsResponse } },
  }, async (request) => services.settings.get(request.actor));

  app.put('/settings', {
    config: { contract: { sample: { body: { quiet_hours: { start: '21:00', end: '08:00' }, link_tracking: true } } }, scope: 'manage' },
    schema: {
      tags,
      summary: 'Change the account\'s sending settings',
      description: 'Fields left out keep their value; quiet_hours: null turns quiet hours off.',
      body: SettingsUpdate,
      response: { 200: SettingsUpdateResult },
    },
  }, async (request) => services.settings.update(request.actor, request.body));
};
