import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { i18nChunks } from './scripts/i18n-chunks.ts';
import { porVerifyPage } from './scripts/por-verify-page.ts';

const API_TARGET = process.env.BOURSE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), i18nChunks(), porVerifyPage()],
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
