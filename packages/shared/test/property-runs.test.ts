import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { propertyRuns, propertyTimeout } from './property-runs.ts';

describe('propertyRuns', () => {
  // why: the scale is read from the environment on each call; the run's own setting must survive.
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.PROPERTY_SCALE;
    delete process.env.PROPERTY_SCALE;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PROPERTY_SCALE;
    else process.env.PROPERTY_SCALE = saved;
  });

  it('keeps the default when no scale is set', () => {
    expect(propertyRuns(60)).toBe(60);
    process.env.PROPERTY_SCALE = '';
    expect(propertyRuns(60)).toBe(60);
  });

  it('multiplies the default by the scale', () => {
    process.env.PROPERTY_SCALE = '50';
    expect(propertyRuns(60)).toBe(3000);
  });

  it('rounds a fractional scale, and never goes below one run', () => {
    process.env.PROPERTY_SCALE = '0.1';
    expect(propertyRuns(126)).toBe(13);
    expect(propertyRuns(124)).toBe(12);
    expect(propertyRuns(6)).toBe(1);
    process.env.PROPERTY_SCALE = '0.001';
    expect(propertyRuns(100)).toBe(1);
  });

  it('throws on a value that is not a positive number, naming it', () => {
    for (const bad of ['abc', '0', '-2', 'Infinity', 'NaN', '1,5']) {
      process.env.PROPERTY_SCALE = bad;
      expect(() => propertyRuns(60)).toThrow(`PROPERTY_SCALE must be a positive number, got "${bad}"`);
    }
  });

  it('grows a time limit with the scale, and never shrinks it', () => {
    expect(propertyTimeout(60_000)).toBe(60_000);
    process.env.PROPERTY_SCALE = '50';
    expect(propertyTimeout(60_000)).toBe(3_000_000);
    process.env.PROPERTY_SCALE = '0.1';
    expect(propertyTimeout(60_000)).toBe(60_000);
  });
});
