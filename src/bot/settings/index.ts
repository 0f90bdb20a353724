export {
  bindingShare,
  exposureCaps,
  type GuildSettings,
  getSettings,
  stakeLimits,
  updateSettings,
} from './guild-settings.js';
export { isChecker, mayBet, memberOf } from './handlers/permissions.js';
