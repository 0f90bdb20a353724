export { OnceRepo } from './once.js';
export { finalStatusOf, shapeProblem, type WebhookDelivery } from './receiver.js';
export { storedDelivery } from './stored-deliveries.js';
