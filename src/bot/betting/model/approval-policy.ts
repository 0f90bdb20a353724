import { formatMoney } from '../../model/money.js';

/** The approval tiers a server set (cents and minutes; absent: the defaults). */
export interface ApprovalSettings {
  approvalT1Cents?: number | undefined;
  approvalT2Cents?: number | undefined;
  approverRoleId?: string | undefined;
  approvalMinutes?: number | undefined;
}

/** Approval defaults: stakes up to $50 need none, up to $100 one approver, above that two; 10 minutes to decide. */
export const APPROVAL_DEFAULTS = { t1Cents: 5000, t2Cents: 10_000, minutes: 10 } as const;

export interface ApprovalPolicy {
  t1Cents: number;
  t2Cents: number;
  approverRoleId: string | undefined;
  expiryMs: number;
}

export function approvalPolicy(s: ApprovalSettings): ApprovalPolicy {
  return {
    t1Cents: s.approvalT1Cents ?? APPROVAL_DEFAULTS.t1Cents,
    t2Cents: s.approvalT2Cents ?? APPROVAL_DEFAULTS.t2Cents,
    approverRoleId: s.approverRoleId,
    expiryMs: Math.round((s.approvalMinutes ?? APPROVAL_DEFAULTS.minutes) * 60_000),
  };
}

/** How many approvers a stake needs under the server's tiers. */
export function approvalsNeeded(policy: ApprovalPolicy, stakeCents: number): 0 | 1 | 2 {
  if (stakeCents <= policy.t1Cents) return 0;
  return stakeCents <= policy.t2Cents ? 1 : 2;
}

/**
 * Why a proposal can never pass, or undefined when it can: the stake needs more approvers than the server has
 * (members who may approve, the proposer left out). Says what each way out is: a lower stake, another approver,
 * or other tiers.
 */
export function tooFewApproversText(policy: ApprovalPolicy, stakeCents: number, approvers: number): string | undefined {
  const needed = approvalsNeeded(policy, stakeCents);
  if (approvers >= needed) return undefined;
  const who = policy.approverRoleId
    ? `members with the <@&${policy.approverRoleId}> role or Manage Server`
    : 'members with Manage Server';
  const has = approvers === 0 ? 'none' : `only ${approvers}`;
  const lower =
    approvers === 0
      ? `${formatMoney(policy.t1Cents)} or less (no approval needed)`
      : `${formatMoney(policy.t2Cents)} or less (one approval)`;
  return (
    `Not proposed: a ${formatMoney(stakeCents)} stake needs ${needed} approval${needed === 1 ? '' : 's'} from ${who}, ` +
    `not counting you, and this server has ${has}, so it could never pass. Lower the stake to ${lower}, ` +
    'or ask an admin to give another member Manage Server or name an approver role (/settings approvals approver_role:), ' +
    'or to raise the tiers (/settings approvals t1: t2:).'
  );
}
