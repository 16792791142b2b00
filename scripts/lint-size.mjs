// Keeps the server's files small enough to read whole: a file above the limit fails `npm run lint`
// and is split by use case (as wallet/ and launchpad/ are), not trimmed of its comments.
import fs from 'node:fs';
import path from 'node:path';

const LIMIT = 700;
const ROOT = path.join(import.meta.dirname, '..', 'apps', 'server', 'src');

function* sources(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (entry.name.endsWith('.ts')) yield full;
  }
}

const tooLong = [];
for (const file of sources(ROOT)) {
  const lines = fs.readFileSync(file, 'utf8').split('\n').length - 1;
  if (lines > LIMIT) tooLong.push(`${path.relative(process.cwd(), file)}: ${lines} lines`);
}
if (tooLong.length > 0) {
  console.error(`Server files above ${LIMIT} lines (split them by use case):\n${tooLong.join('\n')}`);
  process.exit(1);
}
