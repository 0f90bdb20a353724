export { finalStatusOf, type WebhookDelivery } from './receiver.js';
export { storedDelivery } from './stored-deliveries.js';
