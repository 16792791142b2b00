import {
  CaptchaImage,
  ClientConfig,
  LoginBody,
  LoginResult,
  RegisterBody,
  RegisterPhoneBody,
  TokenOnly,
} from '@bourse/shared/api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/auth-hook.ts';
import { clientOf, envelope, ok } from '../../platform/http.ts';
import { toSafeNumber } from '../../platform/time.ts';
import {
  type AuthService,
  ISSUE_CAPTCHA_ERRORS,
  LOGIN_ERRORS,
  REGISTER_BY_PHONE_ERRORS,
  REGISTER_BY_USERNAME_ERRORS,
} from './service.ts';

export interface AuthRoutesOptions {
  auth: AuthService;
  clientConfig: () => z.infer<typeof ClientConfig>;
}

/** `/apiv/Login/*`: public configuration, graphic codes, registration, login and logout. */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];

  api.get('/Login/config', {
    schema: {
      tags,
      operationId: 'getClientConfig',
      summary: 'Client configuration: register mode, captcha, price source',
      response: { 200: envelope(ClientConfig) },
    },
    handler: async (request) => ok(request, options.clientConfig()),
  });

  api.get('/Login/captcha', {
    config: { errors: ISSUE_CAPTCHA_ERRORS },
    schema: {
      tags,
      operationId: 'getCaptcha',
      summary: 'A graphic code: image and the key to send with vcode',
      response: { 200: envelope(CaptchaImage) },
    },
    handler: async (request) => ok(request, await options.auth.issueCaptcha(clientOf(request))),
  });

  api.post('/Login/upregister', {
    config: {
      errors: REGISTER_BY_USERNAME_ERRORS,
    },
    schema: {
      tags,
      operationId: 'register',
      summary: 'Register with a username or e-mail (register mode 1)',
      body: RegisterBody,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      const { account, lpwd, invit, vcode, key, terms_version } = request.body;
      await options.auth.register(
        {
          account,
          password: lpwd,
          invitationCode: invit,
          captchaCode: vcode,
          captchaKey: key,
          termsVersion: terms_version === undefined ? undefined : BigInt(terms_version),
        },
        1,
        clientOf(request),
      );
      return ok(request, null, 'REGISTERED');
    },
  });

  api.post('/Login/upregister_phone', {
    config: {
      errors: REGISTER_BY_PHONE_ERRORS,
    },
    schema: {
      tags,
      operationId: 'registerWithPhone',
      summary: 'Register with a mobile number (register mode 2)',
      body: RegisterPhoneBody,
      response: { 200: envelope(z.null()) },
    },
    handler: async (request) => {
      const { account, lpwd, invit, vcode, key, terms_version } = request.body;
      await options.auth.register(
        {
          account,
          password: lpwd,
          invitationCode: invit,
          captchaCode: vcode,
          captchaKey: key,
          termsVersion: terms_version === undefined ? undefined : BigInt(terms_version),
        },
        2,
        clientOf(request),
      );
      return ok(request, null, 'REGISTERED');
    },
  });

  api.post('/Login/loginsubmit', {
    config: {
      errors: LOGIN_ERRORS,
    },
    schema: {
      tags,
      operationId: 'login',
      summary:
        'Log in; `email` holds the username (or phone); `gacode` the two-factor code when the account has codes on',
      body: LoginBody,
      response: { 200: envelope(LoginResult) },
    },
    handler: async (request) => {
      const { email, lpwd, vcode, key, gacode } = request.body;
      const { token, uid } = await options.auth.login(
        {
          account: email,
          password: lpwd,
          captchaCode: vcode,
          captchaKey: key,
          totpCode: gacode || undefined,
          locale: request.locale,
        },
        clientOf(request),
      );
      return ok(request, { token, uid: toSafeNumber(uid) }, 'LOGGED_IN');
    },
  });

  api.post('/Login/logout', {
    schema: {
      tags,
      operationId: 'logout',
      summary: 'End this session',
      body: TokenOnly,
      response: { 200: envelope(z.null()) },
    },
    config: { auth: true },
    handler: async (request) => {
      await options.auth.logout(requireAuth(request));
      return ok(request, null, 'LOGGED_OUT');
    },
  });
}
