export { Outbox, type OutboxRow } from './outbox.js';
export { OUTBOX_SWEEP } from './sweep-outbox.js';
