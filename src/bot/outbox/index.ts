export { Outbox, type OutboxRow } from './outbox.js';
