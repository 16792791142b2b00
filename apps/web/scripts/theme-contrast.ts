// Measures the contrast of the theme tokens (apps/web/src/shared/theme/theme.css):
// `node apps/web/scripts/theme-contrast.ts` prints every documented and required pair in both
// themes and both up/down preferences; `--write` rewrites the documented ratios in theme.css.
// Exits with 1 when a pair is below its WCAG 2.2 AA bar.
import fs from 'node:fs';
import path from 'node:path';
import {
  CONTRAST_MINIMUM,
  formatRatio,
  REQUIRED_PAIRS,
  readDocumentedPairs,
  readTokens,
  THEME_STATES,
  tokenContrast,
} from '../src/shared/theme/contrast.ts';

const themeFile = path.resolve(import.meta.dirname, '../src/shared/theme/theme.css');
let css = fs.readFileSync(themeFile, 'utf8');
let failures = 0;

console.log('documented pairs (theme.css):');
const lines = css.split('\n');
for (const pair of readDocumentedPairs(css)) {
  const tokens = readTokens(css, { background: pair.theme, upDown: 'green-up' });
  const measured = formatRatio(tokenContrast(tokens, pair.token, pair.other));
  const isLow = Number(measured) < CONTRAST_MINIMUM[pair.kind];
  if (isLow) failures += 1;
  const mark = isLow ? 'FAIL' : measured === pair.documented ? 'ok' : `was ${pair.documented}`;
  console.log(
    `  ${pair.theme.padEnd(5)} ${pair.kind.padEnd(5)} --${pair.token} on --${pair.other}: ${measured}  ${mark}`,
  );
  const other = pair.other.replace(/^bourse-/, '');
  lines[pair.line - 1] = lines[pair.line - 1].replace(
    new RegExp(`(\\b${other} )\\d+\\.\\d{2}`),
    `$1${measured}`,
  );
}

console.log('\nrequired pairs, every theme and preference:');
for (const state of THEME_STATES) {
  const tokens = readTokens(css, state);
  for (const pair of REQUIRED_PAIRS) {
    const ratio = tokenContrast(tokens, pair.token, pair.other);
    if (ratio < CONTRAST_MINIMUM[pair.kind]) {
      failures += 1;
      console.log(
        `  FAIL ${state.background} ${state.upDown} --${pair.token} on --${pair.other}: ${formatRatio(ratio)}`,
      );
    }
  }
  console.log(`  ${state.background} ${state.upDown}: ${REQUIRED_PAIRS.length} pairs checked`);
}

if (process.argv.includes('--write')) {
  css = lines.join('\n');
  fs.writeFileSync(themeFile, css);
  console.log('\ntheme.css updated');
}
process.exit(failures > 0 ? 1 : 0);
