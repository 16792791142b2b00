import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';

const PAGE_DIR = fileURLToPath(new URL('../../../packages/por/page', import.meta.url));

/**
 * Builds the proof-of-reserves verifier page into `dist/por/verify.html` with its script inlined,
 * so the page keeps working when saved to disk and opened offline (a module script loaded from
 * `file://` would be refused). The script is `packages/por/page/verify.ts` with the verifier.
 */
export function porVerifyPage(): Plugin {
  let outDir = '';
  return {
    name: 'bourse-por-verify-page',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const result = await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          write: false,
          emptyOutDir: false,
          minify: true,
          target: 'es2022',
          lib: {
            entry: path.join(PAGE_DIR, 'verify.ts'),
            formats: ['iife'],
            name: 'BourseReservesVerifier',
            fileName: () => 'verify.js',
          },
        },
      });
      const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) =>
        'output' in r ? r.output : [],
      );
      const chunk = outputs.find((o) => o.type === 'chunk');
      if (chunk?.type !== 'chunk') throw new Error('the verifier script did not build');
      const tag = '<script type="module" src="./verify.ts"></script>';
      const html = fs.readFileSync(path.join(PAGE_DIR, 'verify.html'), 'utf8');
      if (!html.includes(tag)) throw new Error('verify.html lost its script tag');
      const inline = `<script>${chunk.code.replaceAll('</script', '<\\/script').trim()}</script>`;
      fs.mkdirSync(path.join(outDir, 'por'), { recursive: true });
      fs.writeFileSync(
        path.join(outDir, 'por', 'verify.html'),
        html.replace(tag, () => inline),
      );
    },
  };
}
