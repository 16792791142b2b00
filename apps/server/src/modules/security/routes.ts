import {
  AntiPhishingBody,
  BackupCodes,
  BindEmailBody,
  BindMobileBody,
  CodeSent,
  EndSessionBody,
  ResetPasswordBody,
  SecurityOverview,
  SendEmailCodeBody,
  SessionList,
  TokenOnly,
  TotpCodeBody,
  TotpSetup,
  UserLoginLog,
  UserLoginLogQuery,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { historyPage } from '../../platform/history-page.ts';
import { clientOf, envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import {
  BIND_EMAIL_ERRORS,
  BIND_MOBILE_ERRORS,
  END_SESSION_ERRORS,
  RESET_PASSWORD_ERRORS,
  SEND_BIND_EMAIL_CODE_ERRORS,
  SEND_RESET_CODE_ERRORS,
  SET_ANTI_PHISHING_ERRORS,
  type SecurityService,
  TOTP_DISABLE_ERRORS,
  TOTP_ENABLE_ERRORS,
  TOTP_SETUP_ERRORS,
} from './service.ts';

/**
 * The security centre's calls (`/apiv/user/*`, signed in) and the forgotten-password pair
 * (`/apiv/Login/sendresetcode`, `/apiv/Login/resetpwd`, public).
 */
export async function securityRoutes(
  app: FastifyInstance,
  options: { security: SecurityService },
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { security } = options;
  const tags = ['security'];
  const config = { auth: true };

  api.get('/user/security', {
    schema: {
      tags,
      operationId: 'getSecurity',
      summary: 'The security centre: bound e-mail and mobile, two-factor codes, anti-phishing code',
      querystring: TokenOnly,
      response: { 200: envelope(SecurityOverview) },
    },
    config,
    handler: async (request) => {
      const o = await security.overview(requireAuth(request).userId);
      return ok(request, {
        email: o.email,
        phone: o.phone,
        totp_enabled: o.totpEnabled,
        backup_codes_left: o.backupCodesLeft,
        anti_phishing: o.antiPhishing,
        paypassword: o.payPassword,
        realname_status: o.realnameStatus,
      });
    },
  });

  api.post('/user/totpsetup', {
    schema: {
      tags,
      operationId: 'setUpTotp',
      summary: 'A new two-factor secret to scan (in effect once a code confirms it)',
      body: TokenOnly,
      response: { 200: envelope(TotpSetup) },
    },
    config: { ...config, errors: TOTP_SETUP_ERRORS },
    handler: async (request) => {
      const setup = await security.totpSetup(requireAuth(request));
      return ok(request, { secret: setup.secret, otpauth_url: setup.otpauthUrl });
    },
  });

  api.post('/user/totpenable', {
    schema: {
      tags,
      operationId: 'enableTotp',
      summary: 'Confirm the new secret with a code; answers ten one-time backup codes, shown once',
      body: TotpCodeBody,
      response: { 200: envelope(BackupCodes) },
    },
    config: {
      ...config,
      errors: TOTP_ENABLE_ERRORS,
    },
    handler: async (request) => {
      const codes = await security.totpEnable(requireAuth(request), request.body.code);
      return ok(request, { backup_codes: codes }, 'TOTP_ENABLED');
    },
  });

  api.post('/user/totpdisable', {
    schema: {
      tags,
      operationId: 'disableTotp',
      summary: 'Turn two-factor codes off with a current code or a backup code',
      body: TotpCodeBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: TOTP_DISABLE_ERRORS },
    handler: async (request) => {
      await security.totpDisable(requireAuth(request), request.body.code);
      return ok(request, null, 'TOTP_DISABLED');
    },
  });

  api.post('/user/antiphishing', {
    schema: {
      tags,
      operationId: 'setAntiPhishing',
      summary: 'Set the anti-phishing code shown in every e-mail and at the top of notifications',
      body: AntiPhishingBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: SET_ANTI_PHISHING_ERRORS },
    handler: async (request) => {
      await security.setAntiPhishing(requireAuth(request), request.body.code);
      return ok(request, null, 'ANTI_PHISHING_SET');
    },
  });

  api.get('/user/sessions', {
    schema: {
      tags,
      operationId: 'listSessions',
      summary: 'The caller’s live sessions and devices, most recently used first',
      querystring: TokenOnly,
      response: { 200: envelope(SessionList) },
    },
    config,
    handler: async (request) => {
      const list = await security.sessions(requireAuth(request));
      return ok(request, {
        list: list.map((s) => ({
          id: toSafeNumber(s.id),
          device: s.device,
          ip: s.ip,
          created_at: s.createdAt,
          last_used_at: s.lastUsedAt,
          current: s.current,
        })),
      });
    },
  });

  api.post('/user/endsession', {
    schema: {
      tags,
      operationId: 'endSession',
      summary: 'End one of the caller’s other sessions',
      body: EndSessionBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: END_SESSION_ERRORS },
    handler: async (request) => {
      await security.endSession(requireAuth(request), BigInt(request.body.id));
      return ok(request, null, 'SESSION_ENDED');
    },
  });

  api.post('/user/endothers', {
    schema: {
      tags,
      operationId: 'endOtherSessions',
      summary: 'End every session of the caller but this one',
      body: TokenOnly,
      response: { 200: envelope(z.null()) },
    },
    config,
    handler: async (request) => {
      await security.endOtherSessions(requireAuth(request));
      return ok(request, null, 'SESSION_ENDED');
    },
  });

  api.get('/user/loginlog', {
    schema: {
      tags,
      operationId: 'listLoginLog',
      summary: 'The caller’s login log: time, address, device, result',
      querystring: UserLoginLogQuery,
      response: { 200: envelope(UserLoginLog) },
    },
    config,
    handler: async (request) => {
      const { list, page, has_more } = await security.loginLog(
        requireAuth(request).userId,
        historyPage(request.query),
      );
      return ok(request, {
        list: list.map((e) => ({
          id: toSafeNumber(e.id),
          created_at: e.createdAt,
          ip: e.ip,
          device: e.device,
          success: e.success,
          reason: e.reason,
        })),
        page,
        has_more,
      });
    },
  });

  api.post('/user/sendemailcode', {
    schema: {
      tags,
      operationId: 'sendBindEmailCode',
      summary: 'Mail a code to the e-mail address to bind (after the graphic code)',
      body: SendEmailCodeBody,
      response: { 200: envelope(CodeSent) },
    },
    config: { ...config, errors: SEND_BIND_EMAIL_CODE_ERRORS },
    handler: async (request) => {
      const { email, vcode, key } = request.body;
      const sent = await security.sendEmailCode({
        purpose: 'bind_email',
        email,
        captchaKey: key,
        captchaCode: vcode,
        ip: clientOf(request).ip,
        userId: requireAuth(request).userId,
      });
      return ok(request, { resend_after: sent.resendAfter }, 'CODE_SENT');
    },
  });

  api.post('/user/bindemail', {
    schema: {
      tags,
      operationId: 'bindEmail',
      summary: 'Bind the e-mail address with the code mailed to it',
      body: BindEmailBody,
      response: { 200: envelope(z.null()) },
    },
    config: { ...config, errors: BIND_EMAIL_ERRORS },
    handler: async (request) => {
      await security.bindEmail(requireAuth(request), request.body.email, request.body.code);
      return ok(request, null, 'EMAIL_BOUND');
    },
  });

  api.post('/user/bindmobile', {
    schema: {
      tags,
      operationId: 'bindMobile',
      summary: 'Bind a mobile number once (login password required)',
      body: BindMobileBody,
      response: { 200: envelope(z.null()) },
    },
    config: {
      ...config,
      errors: BIND_MOBILE_ERRORS,
    },
    handler: async (request) => {
      await security.bindMobile(requireAuth(request), request.body.mobile, request.body.lpwd);
      return ok(request, null, 'MOBILE_BOUND');
    },
  });

  api.post('/Login/sendresetcode', {
    schema: {
      tags,
      operationId: 'sendResetCode',
      summary: 'Forgotten password: mail a code to the account’s e-mail (after the graphic code)',
      body: SendEmailCodeBody,
      response: { 200: envelope(CodeSent) },
    },
    config: { errors: SEND_RESET_CODE_ERRORS },
    handler: async (request) => {
      const { email, vcode, key } = request.body;
      const sent = await security.sendEmailCode({
        purpose: 'reset_password',
        email,
        captchaKey: key,
        captchaCode: vcode,
        ip: clientOf(request).ip,
      });
      return ok(request, { resend_after: sent.resendAfter }, 'CODE_SENT');
    },
  });

  api.post('/Login/resetpwd', {
    schema: {
      tags,
      operationId: 'resetPassword',
      summary: 'Set a new login password with the mailed code; every session ends, withdrawals wait 24 hours',
      body: ResetPasswordBody,
      response: { 200: envelope(z.null()) },
    },
    config: {
      errors: RESET_PASSWORD_ERRORS,
    },
    handler: async (request) => {
      const { email, code, lpwd, relpwd } = request.body;
      await security.resetPassword({ email, code, password: lpwd, repeat: relpwd });
      return ok(request, null, 'PASSWORD_RESET');
    },
  });
}
