import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONTRAST_MINIMUM,
  contrastRatio,
  formatRatio,
  parseColor,
  REQUIRED_PAIRS,
  readDocumentedPairs,
  readTokens,
  THEME_STATES,
  tokenContrast,
} from './contrast.ts';

const css = fs.readFileSync(path.join(import.meta.dirname, 'theme.css'), 'utf8');
const ratioOf = (a: string, b: string) => formatRatio(contrastRatio(parseColor(a)!, parseColor(b)!));

describe('WCAG contrast', () => {
  it('computes the ratios WCAG tools report', () => {
    expect(ratioOf('#000', '#fff')).toBe('21.00');
    expect(ratioOf('#fff', '#fff')).toBe('1.00');
    // pairs of the old tokens that failed AA
    expect(ratioOf('#ffffff', '#4f8cff')).toBe('3.21');
    expect(ratioOf('#ffffff', '#f6465d')).toBe('3.52');
    expect(ratioOf('#6f788a', '#0b0e14')).toBe('4.35');
  });

  it('cuts a ratio to two decimals instead of rounding it up', () => {
    expect(formatRatio(4.499)).toBe('4.49');
  });
});

describe('theme tokens (theme.css)', () => {
  const documented = readDocumentedPairs(css);

  it('documents pairs for both the dark and the white theme', () => {
    expect(documented.filter((p) => p.theme === 'dark').length).toBeGreaterThanOrEqual(30);
    expect(documented.filter((p) => p.theme === 'white').length).toBeGreaterThanOrEqual(25);
  });

  it.each(documented.map((p) => [`${p.theme} --${p.token} on --${p.other} (line ${p.line})`, p] as const))(
    'documented %s is measured right and meets AA',
    (_name, pair) => {
      const tokens = readTokens(css, { background: pair.theme, upDown: 'green-up' });
      const ratio = tokenContrast(tokens, pair.token, pair.other);
      expect(formatRatio(ratio)).toBe(pair.documented);
      expect(ratio).toBeGreaterThanOrEqual(CONTRAST_MINIMUM[pair.kind]);
    },
  );

  it.each(THEME_STATES.map((s) => [`${s.background} ${s.upDown}`, s] as const))(
    'every pair the app draws meets AA in %s',
    (_name, state) => {
      const tokens = readTokens(css, state);
      const failing = REQUIRED_PAIRS.filter(
        (pair) => tokenContrast(tokens, pair.token, pair.other) < CONTRAST_MINIMUM[pair.kind],
      ).map((pair) => `--${pair.token} on --${pair.other}`);
      expect(failing).toEqual([]);
    },
  );

  it('swaps up and down between the two preferences', () => {
    const greenUp = readTokens(css, { background: 'dark', upDown: 'green-up' });
    const redUp = readTokens(css, { background: 'dark', upDown: 'red-up' });
    expect([greenUp.get('bourse-up'), greenUp.get('bourse-down-fill')]).toEqual([
      'var(--bourse-green)',
      'var(--bourse-red-fill)',
    ]);
    expect([redUp.get('bourse-up'), redUp.get('bourse-down-fill')]).toEqual([
      'var(--bourse-red)',
      'var(--bourse-green-fill)',
    ]);
  });

  it('gives the white pages their own text colours', () => {
    const white = readTokens(css, { background: 'white', upDown: 'green-up' });
    expect(white.get('bourse-bg')).toBe('#ffffff');
    expect(white.get('bourse-text-muted')).not.toBe(
      readTokens(css, THEME_STATES[0]).get('bourse-text-muted'),
    );
  });
});
