import { CONTRACT_STATUSES, LIVE_CONTRACT_STATUSES } from '@bourse/shared/api';
import { describe, expect, it } from 'vitest';
import { isLive } from './contract-status.ts';

describe('isLive', () => {
  it('holds exactly the wire’s live statuses', () => {
    const live = CONTRACT_STATUSES.filter((status) => isLive({ status }));
    expect(live).toEqual([...LIVE_CONTRACT_STATUSES]);
  });
});
