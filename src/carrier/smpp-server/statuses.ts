// How a refusal of the send path (its REST error code) is answered in submit_sm_resp (docs/smpp-server.md, "Command
// statuses"). Temporary conditions use statuses ESMEs retry (ESME_RTHROTTLED, ESME_RX_T_APPN); what will be refused
// again uses permanent ones. Anything not listed is ESME_RSYSERR, which ESMEs retry.
import { Status } from '../smpp/pdu-types.ts';

const BY_CODE: Record<string, number> = {
  invalid_number: Status.ESME_RINVDSTADR,
  sender_not_allowed: Status.ESME_RINVSRCADR,
  recipient_opted_out: Status.ESME_RX_P_APPN,
  message_empty: Status.ESME_RINVMSGLEN,
  message_too_long: Status.ESME_RINVMSGLEN,
  insufficient_credits: Status.ESME_RX_T_APPN,
  daily_limit_exceeded: Status.ESME_RTHROTTLED,
  rate_limited: Status.ESME_RTHROTTLED,
  invalid_send_at: Status.ESME_RINVSCHED,
  forbidden: Status.ESME_RX_R_APPN,
  validation_failed: Status.ESME_RX_P_APPN,
};

export const statusForCode = (code: string): number => BY_CODE[code] ?? Status.ESME_RSYSERR;
