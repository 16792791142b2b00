// why: the library ships no types; only the call the wallet makes is declared.
declare module 'multicoin-address-validator' {
  /** Whether `address` is a valid address (checksum included) of `currency` on `networkType`. */
  export function validate(
    address: string,
    currency: string,
    options?: { networkType?: string } | string,
  ): boolean;
  const validator: { validate: typeof validate };
  export default validator;
}
