// The scheduling module's face to other modules. It has no service object: its job releases scheduled messages
// when they fall due, and the modules that cancel them (a message, a campaign) run these statements.
export { cancelScheduled, messageStatus } from './schedule.repo.ts';
