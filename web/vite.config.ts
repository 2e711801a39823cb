import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompress } from './build/precompress.plugin.ts';
import { pureContract } from './build/pure-contract.plugin.ts';

const apiTarget = 'http://localhost:8080';

export default defineConfig({
  plugins: [pureContract(), react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    // The bench reads the manifest to size each route's initial JavaScript.
    manifest: true,
    // The entry's imports are preloaded from index.html; a lazy route's are not preloaded from script.
    // Vite's helper appended a <link rel=modulepreload> per dependency (30 for the dashboard) at
    // the moment the route was imported, about 18 ms of main thread each time on this machine, in
    // the middle of the first render; the route chunk's own imports load in parallel anyway.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    emptyOutDir: true,
    // Every lazy chunk stays under the 100 KB gzip budget; warn well before that in raw size.
    chunkSizeWarningLimit: 350,
    rolldownOptions: {
      // The shared contract's module-level schemas are marked pure (build/pure-contract.plugin.ts): a
      // module of it with nothing used drops out whole.
      treeshake: {
        moduleSideEffects: [{ test: /[\\/]contract[\\/]src[\\/]/, sideEffects: false }],
      },
    },
  },
  test: {
    // Component tests render whole routes whose lazy pages are transformed on first use.
    testTimeout: 20000,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/healthz': { target: apiTarget, changeOrigin: false },
    },
  },
});
