// SMPP 3.4 command ids, statuses and the typed shape of the PDUs Tasman speaks. Everything else decodes as
// 'unknown' so the session can answer it with generic_nack instead of tearing the link down.

export const CommandId = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  query_sm: 0x00000003,
  query_sm_resp: 0x80000003,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
} as const;

export type CommandName = keyof typeof CommandId;

export const commandNameById = new Map<number, CommandName>(
  Object.entries(CommandId).map(([name, id]) => [id, name as CommandName]),
);

export const isResponseId = (commandId: number): boolean => (commandId & 0x80000000) !== 0;

export const Status = {
  ESME_ROK: 0x00,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RINVPRTFLG: 0x06,
  ESME_RINVREGDLVFLG: 0x07,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RINVMSGID: 0x0c,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RMSGQFUL: 0x14,
  ESME_RINVSERTYP: 0x15,
  ESME_RINVNUMDESTS: 0x33,
  ESME_RINVDLNAME: 0x34,
  ESME_RINVDESTFLAG: 0x40,
  ESME_RINVSUBREP: 0x42,
  ESME_RINVESMCLASS: 0x43,
  ESME_RCNTSUBDL: 0x44,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RINVSYSTYP: 0x53,
  ESME_RINVREPFLAG: 0x54,
  ESME_RINVNUMMSGS: 0x55,
  ESME_RTHROTTLED: 0x58,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RINVDFTMSGID: 0x63,
  ESME_RX_T_APPN: 0x64,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVOPTPARSTREAM: 0xc0,
  ESME_ROPTPARNOTALLWD: 0xc1,
  ESME_RINVPARLEN: 0xc2,
  ESME_RMISSINGOPTPARAM: 0xc3,
  ESME_RINVOPTPARAMVAL: 0xc4,
  ESME_RDELIVERYFAILURE: 0xfe,
  ESME_RUNKNOWNERR: 0xff,
} as const;

const statusNameByValue = new Map<number, string>(Object.entries(Status).map(([name, v]) => [v, name]));

/** ESME_RINVDSTADR for a known status, `0x00000400` style hex for vendor-specific ones. */
export const statusName = (status: number): string =>
  statusNameByValue.get(status) ?? `0x${status.toString(16).padStart(8, '0')}`;

// Statuses that say "not now" rather than "never". Vendor-specific codes (0x400-0x4FF) and anything this table
// does not know are also treated as temporary: retrying a permanent failure costs an attempt, while failing a
// temporary one loses a message the customer paid for.
const TEMPORARY = new Set<number>([
  Status.ESME_RINVBNDSTS, Status.ESME_RALYBND, Status.ESME_RSYSERR, Status.ESME_RMSGQFUL, Status.ESME_RTHROTTLED,
  Status.ESME_RX_T_APPN, Status.ESME_RDELIVERYFAILURE, Status.ESME_RUNKNOWNERR,
]);

export const isTemporaryStatus = (status: number): boolean =>
  status !== Status.ESME_ROK && (TEMPORARY.has(status) || !statusNameByValue.has(status));

export const isPermanentStatus = (status: number): boolean =>
  status !== Status.ESME_ROK && !isTemporaryStatus(status);

/** Throttling statuses: the SMSC wants us to slow down, the message itself is fine. */
export const isThrottleStatus = (status: number): boolean =>
  status === Status.ESME_RTHROTTLED || status === Status.ESME_RMSGQFUL;

export const MessageState = {
  ENROUTE: 1, DELIVERED: 2, EXPIRED: 3, DELETED: 4, UNDELIVERABLE: 5, ACCEPTED: 6, UNKNOWN: 7, REJECTED: 8,
} as const;

export const Ton = { UNKNOWN: 0, INTERNATIONAL: 1, NATIONAL: 2, ALPHANUMERIC: 5 } as const;
export const Npi = { UNKNOWN: 0, ISDN: 1 } as const;
export const DataCoding = { DEFAULT: 0x00, LATIN1: 0x03, UCS2: 0x08 } as const;
export const EsmClass = { UDHI: 0x40, RECEIPT_MASK: 0x3c, SMSC_RECEIPT: 0x04 } as const;

export interface Tlv {
  tag: number;
  value: Buffer;
}

/** Optional parameters Tasman understands by name; anything else travels untouched in `other`. */
export interface OptionalParams {
  userMessageReference?: number;
  sourcePort?: number;
  destPort?: number;
  sarMsgRefNum?: number;
  sarTotalSegments?: number;
  sarSegmentSeqnum?: number;
  scInterfaceVersion?: number;
  receiptedMessageId?: string;
  messageState?: number;
  networkErrorCode?: { type: number; code: number };
  messagePayload?: Buffer;
  other?: Tlv[];
}

interface Header {
  sequence: number;
  status: number;
  tlvs: OptionalParams;
}

export type BindCommand = 'bind_transmitter' | 'bind_receiver' | 'bind_transceiver';
export type BindRespCommand = `${BindCommand}_resp`;

export interface BindPdu extends Header {
  command: BindCommand;
  systemId: string;
  password: string;
  systemType: string;
  interfaceVersion: number;
  addrTon: number;
  addrNpi: number;
  addressRange: string;
}

export interface BindRespPdu extends Header {
  command: BindRespCommand;
  systemId: string;
}

/** The body shared by submit_sm and deliver_sm. */
export interface ShortMessageFields {
  serviceType: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
  destAddrTon: number;
  destAddrNpi: number;
  destinationAddr: string;
  esmClass: number;
  protocolId: number;
  priorityFlag: number;
  scheduleDeliveryTime: string;
  validityPeriod: string;
  registeredDelivery: number;
  replaceIfPresentFlag: number;
  dataCoding: number;
  smDefaultMsgId: number;
  shortMessage: Buffer;
}

export interface ShortMessagePdu extends Header, ShortMessageFields {
  command: 'submit_sm' | 'deliver_sm';
}

export interface MessageRespPdu extends Header {
  command: 'submit_sm_resp' | 'deliver_sm_resp';
  messageId: string;
}

export interface EmptyPdu extends Header {
  command: 'enquire_link' | 'enquire_link_resp' | 'unbind' | 'unbind_resp' | 'generic_nack';
}

/** query_sm: the state of a message the SMSC accepted, named by its id and the submit's source address. */
export interface QuerySmPdu extends Header {
  command: 'query_sm';
  messageId: string;
  sourceAddrTon: number;
  sourceAddrNpi: number;
  sourceAddr: string;
}

export interface QuerySmRespPdu extends Header {
  command: 'query_sm_resp';
  messageId: string;
  /** YYMMDDhhmmsstnnp when the message reached a final state, else ''. */
  finalDate: string;
  /** MessageState. */
  messageState: number;
  /** The network error code, 0 when none. */
  errorCode: number;
}

/** A well-framed PDU whose command we do not implement; kept so it can be nacked with its sequence. */
export interface UnknownPdu extends Header {
  command: 'unknown';
  commandId: number;
  body: Buffer;
}

export type Pdu = BindPdu | BindRespPdu | ShortMessagePdu | MessageRespPdu | QuerySmPdu | QuerySmRespPdu | EmptyPdu | UnknownPdu;

export const shortMessageDefaults = (): ShortMessageFields => ({
  serviceType: '', sourceAddrTon: 0, sourceAddrNpi: 0, sourceAddr: '', destAddrTon: 0, destAddrNpi: 0,
  destinationAddr: '', esmClass: 0, protocolId: 0, priorityFlag: 0, scheduleDeliveryTime: '', validityPeriod: '',
  registeredDelivery: 0, replaceIfPresentFlag: 0, dataCoding: 0, smDefaultMsgId: 0, shortMessage: Buffer.alloc(0),
});
