import type { BotConfig } from '../../config/config.js';
import type { RoutedContext } from '../../discord/command.js';
import type { GatewayPort } from '../../gateway-port.js';
import type { BotStore } from '../../store/index.js';
import type { SportRefusals } from '../book-offer.js';
import type { Catalog } from '../catalog.js';

/**
 * What the catalog wing's controls are handed (issue 44): the catalog, the gateway and the store it reads, and
 * which books refuse a sport; the
 * composition's context has every field here.
 */
export interface CatalogDeps extends RoutedContext {
  config: BotConfig;
  gateway: GatewayPort;
  store: BotStore;
  catalog: Catalog;
  /** Which books refuse a sport, so a listing says which books take bets on an event. */
  accounts: SportRefusals;
  now: () => number;
}
