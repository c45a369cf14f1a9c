import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Component tests render in jsdom; the browser end-to-end tests live in e2e/.
export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
  },
});
