/**
 * The wire's zod schemas, and their types: each schema `X` exports `type X` beside it, so a
 * client never writes the shape of an answer or a request again.
 *
 * - Requests (`…Body`, `…Query`, `…Params`): `type X = z.input<typeof X>`, what a client sends
 *   (before the server's coercions, defaults and trims).
 * - Answers: what the client receives. The server sends an answer through its schema with
 *   `safeEncode` (fastify-type-provider-zod), so the JSON on the wire is the schema's *input*
 *   shape; a client that does not decode it again sees `z.input`. The answer schemas carry no
 *   transforms, coercions or defaults (requests do), so their input and output are one type and
 *   they are written `z.infer`. An answer schema that gains a transform must export `z.input`.
 */
export * from './account.ts';
export * from './admin.ts';
export * from './admin-account.ts';
export * from './admin-delivery.ts';
export * from './admin-index.ts';
export * from './admin-perpetual.ts';
export * from './admin-reserves.ts';
export * from './admin-spot.ts';
export * from './auth.ts';
export * from './config.ts';
export * from './content.ts';
export * from './delivery.ts';
export * from './fields.ts';
export * from './invite.ts';
export * from './launchpad.ts';
export * from './markets.ts';
export * from './mining.ts';
export * from './perpetual.ts';
export * from './por.ts';
export * from './spot.ts';
export * from './support.ts';
export * from './wallet.ts';
