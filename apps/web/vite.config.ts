import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { i18nChunks } from './scripts/i18n-chunks.ts';
import { porVerifyPage } from './scripts/por-verify-page.ts';

const API_TARGET = process.env.BOURSE_API ?? 'http://127.0.0.1:8080';

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
        runtimeCaching: [],
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
