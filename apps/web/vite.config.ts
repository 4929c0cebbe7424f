import { fileURLToPath } from 'node:url';
import { constants } from 'node:zlib';
import { createLogger, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

const api = process.env.API_URL ?? 'http://localhost:8080';

/** Module info as the bundler's chunking context gives it (the part used here). */
interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

const ENTRY = fileURLToPath(new URL('./src/main.tsx', import.meta.url));

/**
 * The modules the entry imports statically (directly or through other such modules): what every first load
 * needs. Modules reached only through a dynamic import (the lazy pages, ECharts) are not among them.
 */
function initialModules() {
  let initial: Set<string> | undefined;
  return (id: string, graph: ModuleGraph): boolean => {
    if (!initial) {
      initial = new Set([ENTRY]);
      for (const next of initial)
        for (const imported of graph.getModuleInfo(next)?.importedIds ?? []) initial.add(imported);
    }
    return initial.has(id);
  };
}

const isInitial = initialModules();

/**
 * Vite's messages, but for its warning that index.html's `<script src="/settings.js">` is not bundled: it is not meant
 * to be. The server answers it (the deployment's settings) and writes it into index.html in its place (apps/api
 * app.ts, sendIndex), which needs the tag as written; `vite-ignore` would leave a space behind in it.
 */
const logger = createLogger();
const warn = logger.warn.bind(logger);
logger.warn = (message, options) => {
  if (!message.includes('<script src="/settings.js">')) warn(message, options);
};
const NODE_MODULES = /[\\/]node_modules[\\/]/;

export default defineConfig({
  customLogger: logger,
  plugins: [
    react(),
    // Every text asset also as .br and .gz beside it: the server sends the one the browser accepts
    // (@fastify/static preCompressed), no compression work per request. docs/decisions/0061-delivery.md
    compression({
      include: /\.(html|js|mjs|css|json|svg|txt)$/,
      algorithms: [
        defineAlgorithm('brotliCompress', {
          params: {
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_QUALITY]: 11,
          },
        }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/api': api, '/oidc': api, '/interaction': api, '/auth-pages': api, '/settings.js': api },
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // A cold load over a ship's satellite link pays a round trip (600 ms) per few requests: what the first
        // page needs comes in two files (libraries, which change rarely, and the app), not in ~60 small chunks.
        // Lazy pages keep their own chunks; ECharts stays a chunk of its own, fetched beside the first render.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            {
              name: (id, graph) => (isInitial(id, graph) ? (NODE_MODULES.test(id) ? 'vendor' : 'app') : null),
              debugName: 'vendor and app',
              priority: 2,
            },
            { name: 'echarts', test: /[\\/]node_modules[\\/](echarts|zrender|tslib)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
