import { AppError, fromAtoms, parseAmount, toAtoms } from '@bourse/shared';
import {
  CoinSettingsBody,
  ConfirmDepositBody,
  IdParams,
  NetworkSettingsBody,
  RejectBody,
  ReviewQueueQuery,
  StaffDeposit,
  StaffDepositQueue,
  StaffTokenBody,
  StaffWithdrawal,
  StaffWithdrawalQueue,
  WalletConfigAnswer,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope, ok } from '../../platform/http.ts';
import { staffActorOf } from '../../platform/staff-actor.ts';
import { ADDRESS_FORMATS, isAddressFormat } from './address-format.ts';
import { SAVE_COIN_ERRORS, SAVE_NETWORK_ERRORS, WalletBackOffice } from './back-office.ts';
import { CONFIRM_DEPOSIT_ERRORS, REJECT_DEPOSIT_ERRORS } from './deposits.ts';
import type { WalletService } from './service.ts';
import { APPROVE_WITHDRAWAL_ERRORS, REJECT_WITHDRAWAL_ERRORS } from './withdrawals.ts';

const Done = envelope(z.null());

/**
 * `/admin-api/deposits*`, `/admin-api/withdrawals*` and `/admin-api/config/*`: the finance review
 * queues (each decision one transaction with its ledger entry and audit record) and the wallet
 * configuration (coins, networks, deposit addresses, limits, fees; audited).
 */
export async function walletAdminRoutes(
  app: FastifyInstance,
  options: { wallet: WalletService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['staff'];
  const { wallet } = options;
  const config = new WalletBackOffice(wallet);

  api.get('/deposits', {
    config: { staff: 'finance.read' },
    schema: {
      tags,
      operationId: 'adminListDeposits',
      summary: 'Deposits, by status',
      querystring: ReviewQueueQuery,
      response: { 200: envelope(StaffDepositQueue) },
    },
    handler: async (request) => {
      const { status, page } = request.query;
      return ok(request, await wallet.listDeposits({ status, page }));
    },
  });
  api.get('/withdrawals', {
    config: { staff: 'finance.read' },
    schema: {
      tags,
      operationId: 'adminListWithdrawals',
      summary: 'Withdrawals, by status',
      querystring: ReviewQueueQuery,
      response: { 200: envelope(StaffWithdrawalQueue) },
    },
    handler: async (request) => {
      const { status, page } = request.query;
      return ok(request, await wallet.listWithdrawals({ status, page }));
    },
  });
  api.post('/deposits/:id/confirm', {
    config: {
      staff: 'finance.review',
      errors: CONFIRM_DEPOSIT_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminConfirmDeposit',
      summary: 'Confirm a deposit, crediting the amount given',
      params: IdParams,
      body: ConfirmDepositBody,
      response: { 200: envelope(StaffDeposit) },
    },
    handler: async (request) => {
      const result = await wallet.confirmDeposit({
        depositId: BigInt(request.params.id),
        creditedAmount: toAtoms(request.body.amount),
        staff: staffActorOf(request),
      });
      return ok(request, result);
    },
  });
  api.post('/deposits/:id/reject', {
    config: { staff: 'finance.review', errors: REJECT_DEPOSIT_ERRORS },
    schema: {
      tags,
      operationId: 'adminRejectDeposit',
      summary: 'Reject a deposit with a reason',
      params: IdParams,
      body: RejectBody,
      response: { 200: envelope(StaffDeposit) },
    },
    handler: async (request) => {
      const result = await wallet.rejectDeposit({
        depositId: BigInt(request.params.id),
        reason: request.body.reason,
        staff: staffActorOf(request),
      });
      return ok(request, result);
    },
  });
  api.post('/withdrawals/:id/approve', {
    config: {
      staff: 'finance.review',
      errors: APPROVE_WITHDRAWAL_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminApproveWithdrawal',
      summary: 'Approve a withdrawal (debits the frozen amount)',
      params: IdParams,
      body: StaffTokenBody,
      response: { 200: envelope(StaffWithdrawal) },
    },
    handler: async (request) => {
      const result = await wallet.approveWithdrawal({
        withdrawalId: BigInt(request.params.id),
        staff: staffActorOf(request),
      });
      return ok(request, result);
    },
  });
  api.post('/withdrawals/:id/reject', {
    config: {
      staff: 'finance.review',
      errors: REJECT_WITHDRAWAL_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminRejectWithdrawal',
      summary: 'Reject a withdrawal with a reason (returns the frozen amount)',
      params: IdParams,
      body: RejectBody,
      response: { 200: envelope(StaffWithdrawal) },
    },
    handler: async (request) => {
      const result = await wallet.rejectWithdrawal({
        withdrawalId: BigInt(request.params.id),
        reason: request.body.reason,
        staff: staffActorOf(request),
      });
      return ok(request, result);
    },
  });

  // --- configuration: coins, networks, deposit addresses, limits, fees -------------------------
  api.get('/config/coins', {
    config: { staff: 'config.read' },
    schema: {
      tags,
      operationId: 'adminListCoinSettings',
      summary: 'Every coin with its wallet switches and its networks (deposit address, limits, fee)',
      response: { 200: envelope(WalletConfigAnswer) },
    },
    handler: async (request) => {
      const coins = await config.listCoins();
      return ok(request, {
        addressFormats: [...ADDRESS_FORMATS],
        coins: coins.map((coin) => ({
          ...coin,
          networks: coin.networks.map((n) => ({
            ...n,
            minDeposit: fromAtoms(n.minDeposit),
            minWithdraw: fromAtoms(n.minWithdraw),
            maxWithdraw: fromAtoms(n.maxWithdraw),
            withdrawFee: fromAtoms(n.withdrawFee),
          })),
        })),
      });
    },
  });
  api.post('/config/coins/:symbol', {
    config: { staff: 'config.manage', errors: SAVE_COIN_ERRORS },
    schema: {
      tags,
      operationId: 'adminSaveCoinSettings',
      summary: 'Save a coin’s switches: convertible, deposits, withdrawals, decimals shown (audited)',
      params: z.object({ symbol: z.string().regex(/^[A-Z0-9]{1,16}$/, { error: 'COIN_UNAVAILABLE' }) }),
      body: CoinSettingsBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      const { convertible, depositEnabled, withdrawEnabled, displayDecimals } = request.body;
      await config.saveCoin(staffActorOf(request), {
        coin: request.params.symbol,
        convertible,
        depositEnabled,
        withdrawEnabled,
        displayDecimals,
      });
      return ok(request, null);
    },
  });
  api.post('/config/networks', {
    config: {
      staff: 'config.manage',
      errors: SAVE_NETWORK_ERRORS,
    },
    schema: {
      tags,
      operationId: 'adminSaveNetwork',
      summary: 'Create or update a coin’s network: deposit address, limits, fee, switch (audited)',
      body: NetworkSettingsBody,
      response: { 200: Done },
    },
    handler: async (request) => {
      const body = request.body;
      if (!isAddressFormat(body.addressFormat)) throw new AppError('PARAM_ERROR');
      await config.saveNetwork(staffActorOf(request), {
        coin: body.coin,
        network: body.network,
        addressFormat: body.addressFormat,
        depositAddress: body.depositAddress,
        minDeposit: parseAmount(body.minDeposit),
        minWithdraw: parseAmount(body.minWithdraw),
        maxWithdraw: parseAmount(body.maxWithdraw),
        withdrawFee: parseAmount(body.withdrawFee),
        enabled: body.enabled,
        sort: body.sort,
      });
      return ok(request, null);
    },
  });
}
