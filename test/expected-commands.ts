// The slash commands the bot ships, sorted: the loader test (from source) and the build test (compiled) both
// expect exactly these.
export const EXPECTED_COMMANDS = [
  'accounts',
  'balance',
  'bet',
  'bet-racing',
  'compare',
  'events',
  'exposure',
  'fund',
  'jobs',
  'leaderboard',
  'ledger',
  'markets',
  'multi',
  'price',
  'promos',
  'sessions',
  'settings',
  'stats',
  'watch',
];
