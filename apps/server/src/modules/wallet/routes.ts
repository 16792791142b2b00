import { parseAmount } from '@bourse/shared';
import {
  AddAddressBody,
  AddBankBody,
  AddressListQuery,
  AssetRow,
  AssetsOverview,
  BankCard,
  BankCardList,
  BillLine,
  BillList,
  BillListQuery,
  CoinBalance,
  CoinBody,
  CoinChoiceList,
  CoinQuery,
  CoinSymbol,
  ConvertBody,
  ConvertPage,
  ConvertQuery,
  ConvertResult,
  DeleteBody,
  DepositFields,
  DepositList,
  DepositPage,
  DepositPageQuery,
  DepositRecord,
  RecordListQuery,
  RecordQuery,
  TokenOnly,
  TotalValue,
  UserHome,
  WithdrawAddress,
  WithdrawAddressList,
  WithdrawalList,
  WithdrawalRecord,
  WithdrawBody,
  WithdrawPage,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { envelope, ok } from '../../platform/http.ts';
import { filePart } from '../../platform/uploads.ts';
import { GET_BALANCE_ERRORS, GET_COIN_INFO_ERRORS, GET_COIN_SYMBOL_ERRORS } from './balances.ts';
import { GET_BILL_ERRORS, LIST_BILLS_ERRORS } from './bills.ts';
import { CONVERT_ERRORS, GET_CONVERT_PAGE_ERRORS } from './conversions.ts';
import {
  GET_DEPOSIT_ERRORS,
  GET_DEPOSIT_PAGE_ERRORS,
  LIST_USER_DEPOSITS_ERRORS,
  SUBMIT_DEPOSIT_ERRORS,
} from './deposits.ts';
import {
  ADD_ADDRESS_ERRORS,
  ADD_BANK_CARD_ERRORS,
  DELETE_ADDRESS_ERRORS,
  DELETE_BANK_CARD_ERRORS,
  LIST_ADDRESSES_ERRORS,
} from './destinations.ts';
import type { WalletService } from './service.ts';
import {
  GET_WITHDRAW_PAGE_ERRORS,
  GET_WITHDRAWAL_ERRORS,
  LIST_USER_WITHDRAWALS_ERRORS,
  REQUEST_WITHDRAWAL_ERRORS,
} from './withdrawals.ts';

const voucherPart = filePart('The transfer voucher image (required).');

const DepositBody = DepositFields.extend({ voucher: voucherPart });

/**
 * The wallet's customer API: the spec's `/Finance/*` paths and the wallet's `/user/*` calls. Wire
 * names (`zhuanhua`, `czpage`, `tbhandle`, `paypassword`, ...) are mapped to the service's English
 * names here and nowhere else.
 */
export async function walletRoutes(app: FastifyInstance, options: { wallet: WalletService }): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { wallet } = options;
  const tags = ['wallet'];
  const config = { auth: true };
  const id = (value: string) => BigInt(value);

  // --- balances ---------------------------------------------------------------------------------

  api.get('/Finance/index', {
    schema: {
      tags,
      operationId: 'getAssets',
      summary: 'Assets overview: every coin with available, frozen and value in USDT',
      querystring: TokenOnly,
      response: { 200: envelope(AssetsOverview) },
    },
    config,
    handler: async (request) => ok(request, await wallet.getAssets(requireAuth(request).userId)),
  });

  api.get('/user/index', {
    schema: {
      tags,
      operationId: 'getUserHome',
      summary: "The assets tab's home: the user's profile and every coin with its balance and value",
      querystring: TokenOnly,
      response: { 200: envelope(UserHome) },
    },
    config,
    handler: async (request) => ok(request, await wallet.getUserHome(requireAuth(request).userId)),
  });

  api.get('/Finance/getallzhehe', {
    schema: {
      tags,
      operationId: 'getTotalValue',
      summary: 'Everything the user holds, valued in USDT at index prices',
      querystring: TokenOnly,
      response: { 200: envelope(TotalValue) },
    },
    config,
    handler: async (request) => ok(request, await wallet.getTotalValue(requireAuth(request).userId)),
  });

  api.get('/Finance/getmoney', {
    schema: {
      tags,
      operationId: 'getBalance',
      summary: "One coin's available and frozen balance",
      querystring: CoinQuery,
      response: { 200: envelope(CoinBalance) },
    },
    config: { ...config, errors: GET_BALANCE_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getBalance(requireAuth(request).userId, request.query.coin)),
  });

  api.get('/Finance/coininfo', {
    schema: {
      tags,
      operationId: 'getCoinInfo',
      summary: 'Coin detail: balances, index price, value and what the coin allows',
      querystring: CoinQuery,
      response: { 200: envelope(AssetRow) },
    },
    config: { ...config, errors: GET_COIN_INFO_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getCoinInfo(requireAuth(request).userId, request.query.coin)),
  });

  api.post('/Finance/getsymbol', {
    schema: {
      tags,
      operationId: 'getCoinNetworks',
      summary: "A coin's deposit and withdrawal networks and its index price in USDT",
      body: CoinBody,
      response: { 200: envelope(CoinSymbol) },
    },
    config: { ...config, errors: GET_COIN_SYMBOL_ERRORS },
    handler: async (request) => ok(request, await wallet.getCoinSymbol(request.body.coin)),
  });

  api.post('/Finance/getcoinnum', {
    schema: {
      tags,
      operationId: 'getAvailableAmount',
      summary: "A coin's available amount (for the form being filled)",
      body: CoinBody,
      response: { 200: envelope(CoinBalance) },
    },
    config: { ...config, errors: GET_BALANCE_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getBalance(requireAuth(request).userId, request.body.coin)),
  });

  // --- deposits ---------------------------------------------------------------------------------

  api.get('/User/czcoin', {
    schema: {
      tags,
      operationId: 'listDepositCoins',
      summary: 'Coins open for deposit',
      querystring: TokenOnly,
      response: { 200: envelope(CoinChoiceList) },
    },
    config,
    handler: async (request) =>
      ok(request, await wallet.listCoinChoices(requireAuth(request).userId, 'deposit')),
  });

  api.get('/Finance/czpage', {
    schema: {
      tags,
      operationId: 'getDepositPage',
      summary: "Deposit page: the coin's networks, the platform address on each, the minimum",
      querystring: DepositPageQuery,
      response: { 200: envelope(DepositPage) },
    },
    config: { ...config, errors: GET_DEPOSIT_PAGE_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getDepositPage(request.query.coin, request.query.network)),
  });

  api.post('/Finance/czhandle', {
    schema: {
      tags,
      operationId: 'submitDeposit',
      summary: 'Submit a deposit for review (multipart: coin, network, amount, hash, voucher image)',
      consumes: ['multipart/form-data'],
      body: DepositBody,
      response: { 200: envelope(DepositRecord) },
    },
    config: {
      ...config,
      upload: true,
      errors: SUBMIT_DEPOSIT_ERRORS,
    },
    handler: async (request) => {
      const { coin, network, amount, hash, voucher } = request.body;
      const record = await wallet.submitDeposit(requireAuth(request), {
        coin,
        network,
        amount: parseAmount(amount),
        hash,
        voucher,
      });
      return ok(request, record, 'DEPOSIT_SUBMITTED');
    },
  });

  api.get('/Finance/czlist', {
    schema: {
      tags,
      operationId: 'listDeposits',
      summary: "The user's deposits, newest first",
      querystring: RecordListQuery,
      response: { 200: envelope(DepositList) },
    },
    config: { ...config, errors: LIST_USER_DEPOSITS_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await wallet.listUserDeposits(requireAuth(request).userId, {
          coin: request.query.coin,
          ...historyPage(request.query),
        }),
      ),
  });

  api.get('/Finance/czinfo', {
    schema: {
      tags,
      operationId: 'getDeposit',
      summary: 'One of the user’s deposits',
      querystring: RecordQuery,
      response: { 200: envelope(DepositRecord) },
    },
    config: { ...config, errors: GET_DEPOSIT_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getDeposit(requireAuth(request).userId, id(request.query.id))),
  });

  // --- withdrawals ------------------------------------------------------------------------------

  api.get('/Finance/txcoin', {
    schema: {
      tags,
      operationId: 'listWithdrawalCoins',
      summary: 'Coins open for withdrawal',
      querystring: TokenOnly,
      response: { 200: envelope(CoinChoiceList) },
    },
    config,
    handler: async (request) =>
      ok(request, await wallet.listCoinChoices(requireAuth(request).userId, 'withdraw')),
  });

  api.get('/Finance/txpage', {
    schema: {
      tags,
      operationId: 'getWithdrawPage',
      summary: 'Withdrawal page: networks with limits and fees, saved addresses and cards',
      querystring: CoinQuery,
      response: { 200: envelope(WithdrawPage) },
    },
    config: { ...config, errors: GET_WITHDRAW_PAGE_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getWithdrawPage(requireAuth(request), request.query.coin)),
  });

  api.post('/Finance/tbhandle', {
    schema: {
      tags,
      operationId: 'requestWithdrawal',
      summary: 'Request a withdrawal (amount + fee frozen until staff review it); idempotent by key',
      body: WithdrawBody,
      response: { 200: envelope(WithdrawalRecord) },
    },
    config: {
      ...config,
      errors: REQUEST_WITHDRAWAL_ERRORS,
    },
    handler: async (request) => {
      const body = request.body;
      const record = await wallet.requestWithdrawal(requireAuth(request), {
        coin: body.coin,
        type: body.type,
        addressId: body.address_id === undefined ? undefined : id(body.address_id),
        bankCardId: body.bank_id === undefined ? undefined : id(body.bank_id),
        amount: parseAmount(body.amount),
        payPassword: body.paypassword,
        idempotencyKey: body.idempotency_key,
        totpCode: body.gacode || undefined,
      });
      return ok(request, record, 'WITHDRAWAL_SUBMITTED');
    },
  });

  api.get('/Finance/txlist', {
    schema: {
      tags,
      operationId: 'listWithdrawals',
      summary: "The user's withdrawals, newest first",
      querystring: RecordListQuery,
      response: { 200: envelope(WithdrawalList) },
    },
    config: { ...config, errors: LIST_USER_WITHDRAWALS_ERRORS },
    handler: async (request) =>
      ok(
        request,
        await wallet.listUserWithdrawals(requireAuth(request).userId, {
          coin: request.query.coin,
          ...historyPage(request.query),
        }),
      ),
  });

  api.get('/Finance/txinfo', {
    schema: {
      tags,
      operationId: 'getWithdrawal',
      summary: 'One of the user’s withdrawals',
      querystring: RecordQuery,
      response: { 200: envelope(WithdrawalRecord) },
    },
    config: { ...config, errors: GET_WITHDRAWAL_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getWithdrawal(requireAuth(request).userId, id(request.query.id))),
  });

  // --- conversion -------------------------------------------------------------------------------

  // why: the spec lists `/Finance/zhuanhua` as a GET; a GET must not move money, so it answers the
  // conversion page (published fee, coins, a quote) and the conversion itself is the POST.
  api.get('/Finance/zhuanhua', {
    schema: {
      tags,
      operationId: 'getConvertPage',
      summary: 'Conversion page: the published fee, convertible coins with prices, and a quote',
      querystring: ConvertQuery,
      response: { 200: envelope(ConvertPage) },
    },
    config: {
      ...config,
      errors: GET_CONVERT_PAGE_ERRORS,
    },
    handler: async (request) => {
      const { from, to, amount } = request.query;
      return ok(
        request,
        await wallet.getConvertPage(requireAuth(request).userId, {
          from,
          to,
          amount: amount === undefined ? undefined : parseAmount(amount),
        }),
      );
    },
  });

  api.post('/Finance/zhuanhua', {
    schema: {
      tags,
      operationId: 'convert',
      summary: 'Convert one coin into another at the index price, less the published fee; idempotent by key',
      body: ConvertBody,
      response: { 200: envelope(ConvertResult) },
    },
    config: {
      ...config,
      errors: CONVERT_ERRORS,
    },
    handler: async (request) => {
      const { from, to, amount, idempotency_key } = request.body;
      const result = await wallet.convert(requireAuth(request), {
        from,
        to,
        amount: parseAmount(amount),
        idempotencyKey: idempotency_key,
      });
      return ok(request, result, 'CONVERTED');
    },
  });

  // --- addresses and bank cards -----------------------------------------------------------------

  api.get('/user/addresslist', {
    schema: {
      tags,
      operationId: 'listWithdrawAddresses',
      summary: 'Saved withdrawal addresses (optionally of one coin)',
      querystring: AddressListQuery,
      response: { 200: envelope(WithdrawAddressList) },
    },
    config: { ...config, errors: LIST_ADDRESSES_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.listAddresses(requireAuth(request).userId, request.query.coin)),
  });

  api.post('/user/addaddress', {
    schema: {
      tags,
      operationId: 'addWithdrawAddress',
      summary: 'Save a withdrawal address (validated for the network, checksums included)',
      body: AddAddressBody,
      response: { 200: envelope(WithdrawAddress) },
    },
    config: {
      ...config,
      errors: ADD_ADDRESS_ERRORS,
    },
    handler: async (request) => {
      const { coin, network, address, remark } = request.body;
      const saved = await wallet.addAddress(requireAuth(request), { coin, network, address, remark });
      return ok(request, saved, 'ADDRESS_ADDED');
    },
  });

  api.post('/user/deladdress', {
    schema: {
      tags,
      operationId: 'deleteWithdrawAddress',
      summary: 'Delete a saved withdrawal address',
      body: DeleteBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: DELETE_ADDRESS_ERRORS },
    handler: async (request) => {
      await wallet.deleteAddress(requireAuth(request), id(request.body.id));
      return ok(request, null, 'ADDRESS_DELETED');
    },
  });

  api.post('/user/addbank', {
    schema: {
      tags,
      operationId: 'addBankCard',
      summary: 'Save a bank card: number, holder name, bank, bank code',
      body: AddBankBody,
      response: { 200: envelope(BankCard) },
    },
    config: { ...config, errors: ADD_BANK_CARD_ERRORS },
    handler: async (request) => {
      const { number, name, bank, bank_code } = request.body;
      const card = await wallet.addBankCard(requireAuth(request), {
        number,
        name,
        bank,
        bankCode: bank_code,
      });
      return ok(request, card, 'BANK_CARD_ADDED');
    },
  });

  api.post('/user/userbanklist', {
    schema: {
      tags,
      operationId: 'listBankCards',
      summary: 'Saved bank cards (numbers masked)',
      body: TokenOnly,
      response: { 200: envelope(BankCardList) },
    },
    config,
    handler: async (request) => ok(request, await wallet.listBankCards(requireAuth(request).userId)),
  });

  api.post('/user/delbank', {
    schema: {
      tags,
      operationId: 'deleteBankCard',
      summary: 'Delete a saved bank card',
      body: DeleteBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: DELETE_BANK_CARD_ERRORS },
    handler: async (request) => {
      await wallet.deleteBankCard(requireAuth(request), id(request.body.id));
      return ok(request, null, 'BANK_CARD_DELETED');
    },
  });

  // --- bills ------------------------------------------------------------------------------------

  api.get('/user/mybill', {
    schema: {
      tags,
      operationId: 'listBills',
      summary: "The user's bills: every ledger movement with type, amount, balance after and time",
      querystring: BillListQuery,
      response: { 200: envelope(BillList) },
    },
    config: { ...config, errors: LIST_BILLS_ERRORS },
    handler: async (request) => {
      const { coin, before } = request.query;
      return ok(
        request,
        await wallet.listBills(requireAuth(request).userId, {
          coin,
          before: before === undefined ? undefined : id(before),
        }),
      );
    },
  });

  api.get('/user/billinfo', {
    schema: {
      tags,
      operationId: 'getBill',
      summary: 'One line of the user’s bills',
      querystring: RecordQuery,
      response: { 200: envelope(BillLine) },
    },
    config: { ...config, errors: GET_BILL_ERRORS },
    handler: async (request) =>
      ok(request, await wallet.getBill(requireAuth(request).userId, id(request.query.id))),
  });
}
