export { Outbox } from './outbox.js';
