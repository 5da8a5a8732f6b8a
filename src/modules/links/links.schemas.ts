import { Type } from 'typebox';
import { Timestamp, Uuid } from '../../platform/http/schemas.ts';

/** The message.click webhook body (ClickEvent in links.service.ts). */
export const ClickEventBody = Type.Object({
  event: Type.Literal('message.click'),
  message_id: Uuid,
  recipient: Type.String({ description: 'the number the message went to, E.164' }),
  url: Type.String({ description: 'the URL the message had, where the recipient was sent' }),
  short_url: Type.String({ description: 'the short link the recipient followed' }),
  clicked_at: Timestamp,
  clicks: Type.Integer({ description: 'counted clicks on this link so far, this one included (1: the first)' }),
  first_clicked_at: Timestamp,
  metadata: Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], { description: 'the message\'s metadata, as given at send' }),
});
