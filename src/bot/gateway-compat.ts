import type { GatewayClient } from '../gateway/index.js';
import type { GatewayPort } from './gateway-port.js';

/** The library's client is the bot's gateway: this also checks at compile time that it fits the port. */
export function asGatewayPort(client: GatewayClient): GatewayPort {
  return client;
}
