export interface MainPage {
  /** Short name for reports. */
  name: string;
  /** Hash route, as in `/#/Trade/tradelist`. */
  path: string;
  /** Test id of an element that is on screen once the page has its data. */
  ready: string;
  /** The page needs a session (the guards send anonymous visitors to /login). */
  signedIn: boolean;
}
export const MAIN_PAGES: readonly MainPage[];
export function seedSession(session: { token: string; uid: number | string }): void;
