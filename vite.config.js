// The page is plain static files once built: `vite build` writes build/site, which any static
// server (or `npm start`, which uses `vite preview`) can serve.
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  build: {
    outDir: 'build/site',
    emptyOutDir: true,
    target: 'es2022',
  },
  preview: { host: 'localhost' },
});
