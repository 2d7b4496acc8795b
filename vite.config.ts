import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The lab lives in web/; it imports machines/ and sim/ directly (same code as the CLI).
// Bound to 127.0.0.1: the lab works offline and nothing leaves the machine.
export default defineConfig({
  root: 'web',
  plugins: [react()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: '../dist', emptyOutDir: true },
});
