import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { statechartLayouts } from './web/statechart/vite-plugin.js';

// The lab lives in web/; it imports machines/ and sim/ directly (same code as the CLI).
// Bound to 127.0.0.1: the lab works offline and nothing leaves the machine.
export default defineConfig({
  root: 'web',
  // Relative asset paths: dist/ works from any folder of a static server (and `npm run preview`), not only from /.
  base: './',
  // statechartLayouts: ELK lays the machines out at build time, so the page does not ship ELK.
  plugins: [react(), statechartLayouts()],
  server: { host: '127.0.0.1', port: 5173, strictPort: false, fs: { allow: ['..'] } },
  preview: { host: '127.0.0.1', port: 4173 },
  build: { outDir: '../dist/lab', emptyOutDir: true },
});
