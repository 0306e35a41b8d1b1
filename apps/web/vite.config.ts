import { alphaTab } from '@coderline/alphatab-vite';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  // alphaTab's plugin copies its music font to /font/ and bundles its render worker. (Its
  // declaration file names vite's Plugin type without importing it, so the type is lost.)
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- see above
  plugins: [react(), alphaTab()],
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  // alphaTab's render worker is a module (it reads import.meta.url).
  worker: { format: 'es' },
  server: { proxy: { '/api': 'http://localhost:3000', '/oidc': 'http://localhost:3000' } },
});
