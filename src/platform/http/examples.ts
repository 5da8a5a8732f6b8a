/**
 * Values the API reference's examples share (routes' `config.contract`), so one example's ids and times agree with
 * another's. Documentation only: nothing reads them at run time but the OpenAPI document and the tests that replay
 * the examples.
 */
export const EX = {
  account: '01938f2a-7c41-7d2e-9b6a-3f0c5e8d1a20',
  subAccount: '01938f2b-1e02-7a55-8c3d-6b9e0f4a2c71',
  message: '01938f30-52d4-7b1c-a0e9-2d7f6c3b8e45',
  message2: '01938f30-52d4-7b1c-a0e9-2d7f6c3b8e46',
  campaign: '01938f30-52d0-7c8e-b1f2-9a4d3e6c7b10',
  inbound: '01938f41-0a9b-7e3f-8d25-4c1b7a6e9f03',
  key: '01938f2c-88a1-7f40-9e3b-1d5c7a2e6b94',
  user: '01938f2d-3b7e-7c19-a4f8-0e6d2b9c5a37',
  number: '01938f2e-6d20-7a8b-b5c4-8f1e3a7d2c66',
  senderId: '01938f2f-9e13-7d64-8a7b-5c2f0e1b4d88',
  delivery: '01938f42-7f3c-7b95-9c1d-2e8a4f6b0d19',
  created: '2026-11-20T03:15:42.118Z',
  sent: '2026-11-27T22:04:10.512Z',
  delivered: '2026-11-27T22:04:13.207Z',
  later: '2026-11-27T22:31:05.940Z',
} as const;
