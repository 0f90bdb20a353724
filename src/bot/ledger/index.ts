export {
  appendInTx,
  chainSoon,
  chainStaged,
  Ledger,
  type LedgerEntry,
  type LedgerInput,
  type LedgerKind,
  stageInTx,
  type VerifyResult,
  verifyText,
} from './ledger-repo.js';
