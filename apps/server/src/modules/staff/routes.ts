import { fromAtoms, toAtoms } from '@bourse/shared';
import {
  AdjustBody,
  AdjustmentRequestList,
  AdjustmentRequestQuery,
  AdjustResult,
  AuditList,
  AuditQuery,
  BalanceList,
  CreatedStaff,
  CreateStaffBody,
  Dashboard,
  FreezeBody,
  IdParams,
  LedgerCheck,
  LoginLogList,
  RejectAdjustmentBody,
  StaffAccountList,
  StaffLoginBody,
  StaffLoginStep,
  StaffMe,
  StaffSignedIn,
  StaffStatusBody,
  StaffTokenBody,
  StatementList,
  StatementQuery,
  TotpBody,
  TradeBanBody,
  UserAccount,
  UserSearchQuery,
  UserSummaryList,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clientOf, envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import { requireStaff } from './hook.ts';
import {
  ADJUST_ERRORS,
  APPROVE_ADJUSTMENT_ERRORS,
  BALANCES_ERRORS,
  type BackOfficeService,
  GET_USER_ERRORS,
  LOGIN_LOG_ERRORS,
  REJECT_ADJUSTMENT_ERRORS,
  SET_FROZEN_ERRORS,
  SET_TRADE_BANNED_ERRORS,
  STATEMENT_ERRORS,
} from './operations.ts';
import {
  COMPLETE_LOGIN_ERRORS,
  CREATE_STAFF_ERRORS,
  LOGIN_ERRORS,
  SET_STAFF_STATUS_ERRORS,
  type StaffService,
  type StaffView,
} from './service.ts';

export interface StaffRoutesOptions {
  staff: StaffService;
  backOffice: BackOfficeService;
}

// why: every answer is declared, so the OpenAPI document describes it and the server checks it.
const Done = envelope(z.null());

function staffWire(view: StaffView) {
  return { ...view, id: toSafeNumber(view.id) };
}

/** `/admin-api/*`: the back office. Each route names the permission it needs (see permissions.ts). */
export async function staffRoutes(app: FastifyInstance, options: StaffRoutesOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { staff, backOffice } = options;
  const tags = ['staff'];

  // --- sign-in ---------------------------------------------------------------------------------
  api.post('/login', {
    config: { staff: 'public', errors: LOGIN_ERRORS },
    schema: {
      tags,
      operationId: 'adminLogin',
      summary: 'Staff login, step 1: password; answers a TOTP enrolment or a TOTP step',
      body: StaffLoginBody,
      response: { 200: envelope(StaffLoginStep) },
    },
    handler: async (request) => ok(request, await staff.login(request.body, clientOf(request))),
  });

  api.post('/totp/enrol', {
    config: {
      staff: 'public',
      errors: COMPLETE_LOGIN_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminEnrolTotp',
      summary: 'Staff login, step 2 at first login: confirm the new TOTP secret (and set a new password)',
      body: TotpBody,
      response: { 200: envelope(StaffSignedIn) },
    },
    handler: async (request) => {
      const result = await staff.completeLogin('enrol', request.body, clientOf(request));
      return ok(request, { token: result.token, staff: staffWire(result.staff) }, 'LOGGED_IN');
    },
  });
  api.post('/totp/verify', {
    config: {
      staff: 'public',
      errors: COMPLETE_LOGIN_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminVerifyTotp',
      summary: 'Staff login, step 2: the current TOTP code',
      body: TotpBody,
      response: { 200: envelope(StaffSignedIn) },
    },
    handler: async (request) => {
      const result = await staff.completeLogin('totp', request.body, clientOf(request));
      return ok(request, { token: result.token, staff: staffWire(result.staff) }, 'LOGGED_IN');
    },
  });

  api.post('/logout', {
    config: { staff: 'session' },
    schema: {
      tags,
      operationId: 'adminLogout',
      summary: 'End the staff session',
      body: StaffTokenBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      await staff.logout(requireStaff(request));
      return ok(request, null, 'LOGGED_OUT');
    },
  });

  api.get('/me', {
    config: { staff: 'session' },
    schema: {
      tags,
      operationId: 'adminGetMe',
      summary: 'The signed-in staff member and what their role may do',
      response: { 200: envelope(StaffMe) },
    },
    handler: async (request) => {
      const me = await staff.me(requireStaff(request));
      return ok(request, { ...staffWire(me), permissions: [...me.permissions] });
    },
  });

  // --- dashboard -------------------------------------------------------------------------------
  api.get('/dashboard', {
    config: { staff: 'dashboard.read' },
    schema: {
      tags,
      operationId: 'adminGetDashboard',
      summary: 'Users, pending reviews, today’s deposits and withdrawals, ledger status, the platform halt',
      response: { 200: envelope(Dashboard) },
    },
    handler: async (request) => {
      const figures = await backOffice.dashboard();
      return ok(request, {
        ...figures,
        usersTotal: toSafeNumber(figures.usersTotal),
        halt: figures.halt && { ...figures.halt, id: toSafeNumber(figures.halt.id) },
      });
    },
  });

  api.post('/ledger/check', {
    config: { staff: 'dashboard.read' },
    schema: {
      tags,
      operationId: 'adminCheckLedger',
      summary: 'Check the ledger’s invariants now (the dashboard shows the periodic check)',
      response: { 200: envelope(LedgerCheck) },
    },
    handler: async (request) => ok(request, await backOffice.checkLedgerNow(requireStaff(request))),
  });

  // --- users -----------------------------------------------------------------------------------
  api.get('/users', {
    config: { staff: 'users.read' },
    schema: {
      tags,
      operationId: 'adminSearchUsers',
      summary: 'Search users by id, username or phone (prefix)',
      querystring: UserSearchQuery,
      response: { 200: envelope(UserSummaryList) },
    },
    handler: async (request) => {
      const rows = await backOffice.searchUsers(request.query.q);
      return ok(
        request,
        rows.map((row) => ({ ...row, id: toSafeNumber(row.id) })),
      );
    },
  });

  api.get('/users/:id', {
    config: { staff: 'users.read', errors: GET_USER_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetUser',
      summary: 'A user’s profile',
      params: IdParams,
      response: { 200: envelope(UserAccount) },
    },
    handler: async (request) => {
      const user = await backOffice.getUser(BigInt(request.params.id));
      return ok(request, {
        ...user,
        id: toSafeNumber(user.id),
        level: toSafeNumber(user.level),
        realnameStatus: toSafeNumber(user.realnameStatus),
        referrerId: user.referrerId === null ? null : toSafeNumber(user.referrerId),
      });
    },
  });

  api.get('/users/:id/logins', {
    config: { staff: 'users.read', errors: LOGIN_LOG_ERRORS },
    schema: {
      tags,
      operationId: 'adminListUserLogins',
      summary: 'A user’s login log, newest first',
      params: IdParams,
      response: { 200: envelope(LoginLogList) },
    },
    handler: async (request) => {
      const rows = await backOffice.loginLog(BigInt(request.params.id));
      return ok(
        request,
        rows.map((row) => ({ ...row, id: toSafeNumber(row.id) })),
      );
    },
  });

  api.get('/users/:id/balances', {
    config: { staff: 'users.balances', errors: BALANCES_ERRORS },
    schema: {
      tags,
      operationId: 'adminListUserBalances',
      summary: 'A user’s balances per asset and kind',
      params: IdParams,
      response: { 200: envelope(BalanceList) },
    },
    handler: async (request) => {
      const rows = await backOffice.balances(BigInt(request.params.id));
      return ok(
        request,
        rows.map((row) => ({ ...row, balance: fromAtoms(row.balance) })),
      );
    },
  });

  api.get('/users/:id/statement', {
    config: { staff: 'users.balances', errors: STATEMENT_ERRORS },
    schema: {
      tags,
      operationId: 'adminGetUserStatement',
      summary: 'A user’s statement (every ledger movement), newest first',
      params: IdParams,
      querystring: StatementQuery,
      response: { 200: envelope(StatementList) },
    },
    handler: async (request) => {
      const { asset, beforeId, limit } = request.query;
      const lines = await backOffice.statement(BigInt(request.params.id), {
        asset,
        limit,
        beforeId: beforeId === undefined ? undefined : BigInt(beforeId),
      });
      return ok(
        request,
        lines.map((line) => ({
          ...line,
          id: toSafeNumber(line.id),
          entryId: toSafeNumber(line.entryId),
          amount: fromAtoms(line.amount),
          balanceAfter: fromAtoms(line.balanceAfter),
        })),
      );
    },
  });

  api.post('/users/:id/freeze', {
    config: { staff: 'users.freeze', errors: SET_FROZEN_ERRORS },
    schema: {
      tags,
      operationId: 'adminFreezeUser',
      summary: 'Freeze (sessions end, logins refused) or unfreeze a user',
      params: IdParams,
      body: FreezeBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      const { frozen, reason } = request.body;
      await backOffice.setFrozen(requireStaff(request), BigInt(request.params.id), frozen, reason);
      return ok(request, null);
    },
  });

  api.post('/users/:id/trade-ban', {
    config: { staff: 'users.trade_ban', errors: SET_TRADE_BANNED_ERRORS },
    schema: {
      tags,
      operationId: 'adminBanUserTrading',
      summary: 'Ban or allow a user’s trading',
      params: IdParams,
      body: TradeBanBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      const { banned, reason } = request.body;
      await backOffice.setTradeBanned(requireStaff(request), BigInt(request.params.id), banned, reason);
      return ok(request, null);
    },
  });

  api.post('/users/:id/adjust', {
    config: {
      staff: 'finance.adjust',
      errors: ADJUST_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminAdjustBalance',
      summary:
        'Manual adjustment: a double-entry entry with the system account `adjustments`, or, above the approval threshold, a request for a second staff member',
      params: IdParams,
      body: AdjustBody,
      response: { 200: envelope(AdjustResult) },
    },
    handler: async (request) => {
      const { asset, amount, reason, key } = request.body;
      const result = await backOffice.adjust(requireStaff(request), {
        userId: BigInt(request.params.id),
        asset,
        amount: toAtoms(amount),
        reason,
        key,
      });
      return ok(
        request,
        result.status === 'done'
          ? { status: 'done', entryId: toSafeNumber(result.entryId), balance: fromAtoms(result.balance) }
          : { status: 'pending', requestId: String(result.requestId) },
      );
    },
  });

  api.get('/adjustments', {
    config: { staff: 'finance.read' },
    schema: {
      tags,
      operationId: 'adminListAdjustmentRequests',
      summary: 'Adjustment requests waiting for (or decided by) a second staff member',
      querystring: AdjustmentRequestQuery,
      response: { 200: envelope(AdjustmentRequestList) },
    },
    handler: async (request) => {
      const rows = await backOffice.listAdjustmentRequests(request.query.status);
      return ok(
        request,
        rows.map((row) => ({
          id: String(row.id),
          userId: String(row.userId),
          username: row.username,
          asset: row.asset,
          amount: fromAtoms(row.amount),
          usdtValue: row.usdtValue === null ? null : fromAtoms(row.usdtValue),
          reason: row.reason,
          status: row.status,
          requestedBy: row.requestedBy,
          requestedAt: row.requestedAt,
          decidedBy: row.decidedBy,
          decidedAt: row.decidedAt,
          decisionReason: row.decisionReason,
          entryId: row.entryId === null ? null : String(row.entryId),
        })),
      );
    },
  });

  api.post('/adjustments/:id/approve', {
    config: {
      staff: 'finance.adjust',
      errors: APPROVE_ADJUSTMENT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminApproveAdjustment',
      summary: 'Approve an adjustment request (not its maker): its entry is posted',
      params: IdParams,
      body: StaffTokenBody,
      response: { 200: envelope(AdjustResult) },
    },
    handler: async (request) => {
      const result = await backOffice.approveAdjustment(requireStaff(request), BigInt(request.params.id));
      return ok(request, {
        status: 'done',
        entryId: toSafeNumber(result.entryId),
        balance: fromAtoms(result.balance),
      });
    },
  });

  api.post('/adjustments/:id/reject', {
    config: { staff: 'finance.adjust', errors: REJECT_ADJUSTMENT_ERRORS },
    schema: {
      tags,
      operationId: 'adminRejectAdjustment',
      summary: 'Reject (or, its maker, withdraw) an adjustment request: nothing is posted',
      params: IdParams,
      body: RejectAdjustmentBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      await backOffice.rejectAdjustment(
        requireStaff(request),
        BigInt(request.params.id),
        request.body.reason,
      );
      return ok(request, null);
    },
  });

  // --- staff -----------------------------------------------------------------------------------
  api.get('/staff', {
    config: { staff: 'staff.manage' },
    schema: {
      tags,
      operationId: 'adminListStaff',
      summary: 'Staff accounts',
      response: { 200: envelope(StaffAccountList) },
    },
    handler: async (request) => ok(request, (await staff.listStaff()).map(staffWire)),
  });
  api.post('/staff', {
    config: { staff: 'staff.manage', errors: CREATE_STAFF_ERRORS },
    schema: {
      tags,
      operationId: 'adminCreateStaff',
      summary: 'Create a staff account (it changes its password and enrols TOTP at first login)',
      body: CreateStaffBody,
      response: { 200: envelope(CreatedStaff) },
    },
    handler: async (request) => {
      const { username, password, role } = request.body;
      const id = await staff.createStaff(requireStaff(request), { username, password, role });
      return ok(request, { id: toSafeNumber(id) });
    },
  });
  api.post('/staff/:id/status', {
    config: { staff: 'staff.manage', errors: SET_STAFF_STATUS_ERRORS },
    schema: {
      tags,
      operationId: 'adminSetStaffStatus',
      summary: 'Disable (sessions end) or enable a staff account',
      params: IdParams,
      body: StaffStatusBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      await staff.setStaffStatus(requireStaff(request), {
        staffId: BigInt(request.params.id),
        status: request.body.disabled ? 'disabled' : 'active',
        reason: request.body.reason,
      });
      return ok(request, null);
    },
  });

  // --- audit log (read only: no route writes it) ------------------------------------------------
  api.get('/audit', {
    config: { staff: 'audit.read' },
    schema: {
      tags,
      operationId: 'adminListAudit',
      summary: 'The audit log, newest first, filtered',
      querystring: AuditQuery,
      response: { 200: envelope(AuditList) },
    },
    handler: async (request) => {
      const { actor, action, target, from, to, beforeId, limit } = request.query;
      const rows = await backOffice.listAudit({
        actor,
        action,
        target,
        from,
        to,
        limit,
        beforeId: beforeId === undefined ? undefined : BigInt(beforeId),
      });
      return ok(
        request,
        rows.map((row) => ({ ...row, id: toSafeNumber(row.id) })),
      );
    },
  });
}
