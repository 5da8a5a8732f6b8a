import { describe, expect, it } from 'vitest';
import { channelToken, LISTENER_ANY, listenerName } from './listener-name.ts';

describe('listenerName', () => {
  it('names the three channels of a workers process within the 63 bytes PostgreSQL keeps', () => {
    const name = listenerName(['tasman_auth', 'tasman_messages_queued', 'tasman_webhooks']);
    expect(name).toBe('tasman listen auth messages_queued webhooks');
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    for (const c of ['tasman_auth', 'tasman_messages_queued', 'tasman_webhooks']) {
      expect(` ${name.slice('tasman listen '.length)} `).toContain(` ${channelToken(c)} `);
    }
  });

  it('falls back to "every channel" when the names do not fit', () => {
    expect(listenerName(['tasman_a_very_long_channel_name_one', 'tasman_a_very_long_channel_name_two'])).toBe(LISTENER_ANY);
  });

  it('keeps a channel without the prefix as it is', () => {
    expect(channelToken('other_channel')).toBe('other_channel');
  });
});
