import type { StaffRole } from '../../platform/schema.ts';

export type { StaffRole };

/** What a back-office route may need; each route names exactly one. */
export const PERMISSIONS = [
  'dashboard.read',
  'users.read',
  'users.balances',
  'users.freeze',
  'users.trade_ban',
  'finance.read',
  'finance.review',
  'finance.adjust',
  'staff.manage',
  'audit.read',
  'config.read',
  'config.manage',
  'delivery.read',
  'delivery.manage',
  'spot.read',
  'spot.manage',
  'perp.read',
  'perp.manage',
  'reserves.read',
  'reserves.manage',
  'identity.read',
  'identity.review',
  'notices.broadcast',
  'mail.read',
  'support.chat',
  'content.read',
  'content.manage',
  'launchpad.read',
  'launchpad.manage',
  'launchpad.referral',
  'agents.review',
  'mining.read',
  'mining.manage',
  'mining.fund',
  'platform.resume',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Which role may do what. The owner may do everything; nobody else manages staff or changes the
 * wallet configuration (a network's settings include the deposit address customers pay to) or the
 * delivery products and trial money or the spot markets; finance reads delivery exposure, results
 * and contracts; finance and compliance read spot markets, books and a user's orders, and the
 * perpetual markets, their insurance funds, liquidations, ADL and funding (only the owner changes them); finance
 * attaches proof-of-reserves entries and publishes snapshots, compliance reads them; compliance
 * reviews identities (their images only through an audited call); content staff send broadcast
 * notices and write announcements, help and pages; support reads the mail outbox (a user asking
 * where their code went) and the published content it points customers to. Content and finance
 * staff run launchpad projects (terms, inventory, publication; no role sets progress, sold amounts
 * or allocations); compliance reviews agents; only the owner changes the referral programme, whose
 * generations 2–3 need their recorded acknowledgement of the legal warning. The owner sets up
 * mining machines; finance funds their output pools from the treasury. Only the owner clears a
 * platform halt (trading and withdrawals stopped by a failed ledger check).
 */
export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  owner: PERMISSIONS,
  finance: [
    'dashboard.read',
    'users.read',
    'users.balances',
    'finance.read',
    'finance.review',
    'finance.adjust',
    'config.read',
    'delivery.read',
    'spot.read',
    'perp.read',
    'reserves.read',
    'reserves.manage',
    'launchpad.read',
    'launchpad.manage',
    'mining.read',
    'mining.fund',
  ],
  compliance: [
    'dashboard.read',
    'users.read',
    'users.balances',
    'users.freeze',
    'users.trade_ban',
    'finance.read',
    'audit.read',
    'config.read',
    'spot.read',
    'perp.read',
    'reserves.read',
    'identity.read',
    'identity.review',
    'launchpad.read',
    'agents.review',
  ],
  support: ['dashboard.read', 'users.read', 'mail.read', 'support.chat', 'content.read'],
  content: [
    'dashboard.read',
    'notices.broadcast',
    'content.read',
    'content.manage',
    'launchpad.read',
    'launchpad.manage',
    'mining.read',
  ],
};

export function canRole(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}
