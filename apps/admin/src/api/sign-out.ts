import { z } from 'zod';
import { api } from './client.ts';

/** Ends the session on the server (the token stops working). */
export function signOut() {
  return api('POST', '/logout', undefined, z.unknown());
}
