import fs from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { i18nChunks } from './scripts/i18n-chunks.ts';
import { porVerifyPage } from './scripts/por-verify-page.ts';

const API_TARGET = process.env.BOURSE_API ?? 'http://127.0.0.1:8080';

/** Keeps in the precache only index.html, the files it references, the icons and the manifest. */
async function shellOnly(entries: { url: string; revision: string | null; size: number }[]) {
  const html = fs.readFileSync(path.join(import.meta.dirname, 'dist/index.html'), 'utf8');
  const referenced = new Set([...html.matchAll(/(?:src|href)="\/([^"]+)"/g)].map((m) => m[1]));
  const manifest = entries.filter(
    (entry) => entry.url === 'index.html' || entry.url.startsWith('icons/') || referenced.has(entry.url),
  );
  return { manifest, warnings: [] };
}

export default defineConfig({
  plugins: [
    react(),
    i18nChunks(),
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
