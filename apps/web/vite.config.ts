import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bootFrame } from './scripts/boot-frame.ts';
import { i18nChunks } from './scripts/i18n-chunks.ts';
import { porVerifyPage } from './scripts/por-verify-page.ts';

const API_TARGET = process.env.BOURSE_API ?? 'http://127.0.0.1:8080';

/** Keeps in the precache only index.html, the files it references, the icons and the manifest. */
async function shellOnly(entries: { url: string; revision: string | null; size: number }[]) {
  const html = fs.readFileSync(path.join(import.meta.dirname, 'dist/index.html'), 'utf8');
  const referenced = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));
  // why: the main script and its imports are named in the boot script's data (scripts/boot-frame.ts
  // writes `"entry":…,"entryFiles":[…]`), not in tags.
  const boot = html.match(/"entry":"\/([^"]+)","entryFiles":\[([^\]]*)\]/);
  if (boot) {
    referenced.add(boot[1]);
    for (const file of boot[2]?.matchAll(/"\/([^"]+)"/g) ?? []) referenced.add(file[1]);
  }
  const manifest = entries.filter(
    (entry) => entry.url === 'index.html' || entry.url.startsWith('icons/') || referenced.has(entry.url),
  );
  return { manifest, warnings: [] };
}

/**
 * Lists, for each lazy import, only the scripts its host has not loaded already. Vite lists every
 * script a lazy page needs, including the shared ones (React, the HTTP client, i18next …) that the
 * importing chunk imports itself and so are loaded by the time the import runs; with 60 lazy routes
 * those lists, and the table of file names behind them, were about a kilobyte of the first load
 * (which has a 150 KB budget). Styles are always listed (Vite keeps them apart).
 */
function preloadMissingOnly() {
  let bundle: Record<string, { type: string; imports?: string[] }> = {};
  const loadedWith = new Map<string, Set<string>>();
  const closure = (file: string): Set<string> => {
    let files = loadedWith.get(file);
    if (files) return files;
    files = new Set();
    const stack = [file];
    while (stack.length > 0) {
      const next = stack.pop() as string;
      if (files.has(next)) continue;
      files.add(next);
      for (const imported of bundle[next]?.imports ?? []) stack.push(imported);
    }
    loadedWith.set(file, files);
    return files;
  };
  return {
    plugin: {
      name: 'bourse:preload-missing-only',
      enforce: 'pre' as const,
      generateBundle(_options: unknown, output: typeof bundle) {
        bundle = output;
        loadedWith.clear();
      },
    },
    resolveDependencies(_file: string, deps: string[], context: { hostId: string }): string[] {
      const loaded = closure(context.hostId);
      return deps.filter((dep) => !loaded.has(dep));
    },
  };
}

const preload = preloadMissingOnly();

export default defineConfig({
  plugins: [
    preload.plugin,
    react(),
    i18nChunks(),
    bootFrame(),
    porVerifyPage(),
    // The installable app: a manifest, and a service worker that keeps the app shell (the built
    // HTML, scripts, styles, fonts and icons) for instant and offline starts. It never caches API
    // data, sockets, uploads, the back office or the proof-of-reserves files; a new deployment
    // waits until the user accepts the update prompt (app/pwa.ts).
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        name: 'Bourse',
        short_name: 'Bourse',
        description: 'Digital-asset markets on your phone',
        id: '/',
        start_url: '/#/Trade/tradelist',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#0b0e14',
        background_color: '#0b0e14',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,svg,png,woff2}'],
        globIgnores: ['por/**'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [
          /^\/(apiv|ws|Upload|admin|admin-api|por|docs|metrics|healthz|readyz)(\/|$)/,
        ],
        // why: the precache is the shell only (index.html and what it loads, icons, manifest). All
        // 330-odd built files (every page, every locale's texts: 1.4 MB) fetched at once on a first
        // visit took the browser's six connections from the pages the user was opening. Other
        // built files are kept when first fetched; their names carry their hash, so a kept one
        // never goes stale.
        manifestTransforms: [shellOnly],
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: 'bourse-assets', expiration: { maxEntries: 500 } },
          },
        ],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
    }),
  ],
  // why: the server serves dist at `/`, and hash routing keeps every page at index.html.
  base: '/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    modulePreload: { resolveDependencies: preload.resolveDependencies },
    rollupOptions: {
      // why: the first script carries the names of every chunk (the lazy pages' imports); hashes
      // alone keep that table a kilobyte smaller. Styles and other assets keep their names.
      output: { chunkFileNames: 'assets/[hash].js' },
    },
  },
  server: {
    host: true,
    proxy: {
      '/apiv': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
      '/Upload': { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/apiv': { target: API_TARGET, changeOrigin: true },
      '/ws': { target: API_TARGET, ws: true, changeOrigin: true },
    },
  },
});
