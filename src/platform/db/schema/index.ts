export * from './accounts.ts';
export * from './messaging.ts';
export * from './webhooks.ts';
export * from './sessions.ts';
export * from './smpp.ts';
export * from './contacts.ts';
export * from './templates.ts';
