/** A value a form-encoded request can carry (what `Params` of the HTTP client accepts). */
type WireValue = string | number | boolean | null | undefined;

/**
 * What a client function sends for a request body typed by its shared zod schema
 * (`z.input<typeof SomeBody>`): every field the server reads, each one stated; an optional field
 * may be `undefined` to leave it out. A field added to the schema is then a type error at every
 * caller until it is sent or deliberately left out (why: the withdrawal form once never sent
 * `gacode`). Coerced fields (input `unknown`) narrow to what the wire carries. The session `token`
 * is the HTTP client's business.
 */
export type WireInput<Body> = {
  [Field in Exclude<keyof Body, 'token'>]-?: Partial<Pick<Body, Field>> extends Pick<Body, Field>
    ? (Body[Field] & WireValue) | undefined
    : Body[Field] & WireValue;
};
