/** @module console/vite.config: builds the console SPA into console/dist for the server's static handler (src/server/console/static.ts). */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

/**
 * The page is served under the CSP of src/server/console/static.ts (`script-src 'self'; style-src 'self'`):
 * nothing may be inlined into index.html (no inline script or style, no data: fonts), so assets are
 * never inlined and the module-preload polyfill (a script Vite can inline) is off; Chromium, the only
 * browser the console's tests use, and every current browser support module preload natively.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [preact({ devToolsEnabled: false, prefreshEnabled: false })],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    // Hashed names: the static handler serves /console/assets/* as immutable.
    rollupOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
