import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const API_TARGET = process.env.BOURSE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  // why: the server serves dist at `/admin/`; hash routing keeps every page at index.html.
  base: '/admin/',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/admin-api': { target: API_TARGET, changeOrigin: true },
      '/Upload': { target: API_TARGET, changeOrigin: true },
    },
  },
});
