// `npm run lint`, last step: writes the API document and lints it with redocly
// (`redocly.yaml`: the recommended rules, every warning an error).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApiDocument } from './api-document.ts';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-openapi-'));
const file = path.join(dir, 'openapi.json');
try {
  fs.writeFileSync(file, JSON.stringify(await buildApiDocument(), null, 2));
  const result = spawnSync(
    'redocly',
    ['lint', path.basename(file), '--config', path.join(root, 'redocly.yaml'), '--format', 'stylish'],
    { cwd: dir, stdio: 'inherit' },
  );
  process.exitCode = result.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
