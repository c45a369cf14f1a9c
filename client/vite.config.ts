import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// `vite` (dev) proxies the API and socket.io to a running single instance
// (`npm start`, port 3000); `vite build` writes dist/, which the gateway serves.
const target = process.env.IM_DEV_SERVER ?? 'http://127.0.0.1:3000';

/** The app's colours as the browser shows them around it (title bar, splash screen). */
const THEME_COLOR = '#1e1f22';

export default defineConfig({
  plugins: [
    react(),
    // The installable app: the manifest, icons made from public/logo.svg at build, and the
    // service worker (src/sw/sw.ts) with the list of files it keeps for offline start.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // Registered by src/offline/service-worker.ts (the page shows an update notice itself).
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: {
        // A classic script: push registration (navigator.serviceWorker.register('/sw.js')) loads it too.
        rollupFormat: 'iife',
        // The manifest is added by the plugin itself.
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
        // The emoji data and code highlighting chunks are large; the app shell is what must open offline.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      },
      pwaAssets: {
        image: 'public/logo.svg',
        preset: 'minimal-2023',
        overrideManifestIcons: true,
        injectThemeColor: false,
      },
      manifest: {
        name: 'Loquat',
        short_name: 'Loquat',
        description: 'Group chat: groups, panels, threads and direct messages.',
        id: '/',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: THEME_COLOR,
        theme_color: THEME_COLOR,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 800 },
  server: {
    proxy: {
      '/api': target,
      '/socket.io': { target, ws: true },
    },
  },
});
