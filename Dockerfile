# Multi-stage build of the standalone server (README "Deploying"). Not built on the development
# machine (no container runtime there); kept to the conventional Next.js standalone recipe.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM node:20-bookworm-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
COPY --from=deps /app/node_modules ./node_modules
COPY . .
RUN npm run build

FROM node:20-bookworm-slim AS run
WORKDIR /app
ENV NODE_ENV=production \
    NEXT_TELEMETRY_DISABLED=1 \
    HOSTNAME=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/study.db
# server.mjs (Next.js behind the front door) and Next's server.js with its traced node_modules, static assets, public/ and drizzle/ (scripts/standalone.mjs).
COPY --from=build --chown=node:node /app/.next/standalone ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# node runs as PID 1 with no wrapper: `docker stop`'s SIGTERM reaches the server, which shuts down gracefully.
STOPSIGNAL SIGTERM
CMD ["node", "server.mjs"]
