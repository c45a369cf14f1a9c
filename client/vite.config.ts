import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `vite` (dev) proxies the API and socket.io to a running single instance
// (`npm start`, port 3000); `vite build` writes dist/, which the gateway serves.
const target = process.env.IM_DEV_SERVER ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 800 },
  server: {
    proxy: {
      '/api': target,
      '/socket.io': { target, ws: true },
    },
  },
});
