# syntax=docker/dockerfile:1
# Vitrina: the shop as one image. Build: `docker build -t vitrina .`; run it with compose.yaml, or with
# at least NODE_ENV=production (the default here), SESSION_SECRET, PUBLIC_URL and TEST_MODE (false
# with the providers' credentials, or true for the simulators; docs/production.md).
# The lockfile records every platform's native binaries (sharp, argon2, esbuild, rollup, biome), so
# `npm ci` installs the right ones on amd64 and arm64 alike.

ARG NODE_VERSION=24

# ── build: every dependency, the web app and the compiled server, then production dependencies only ─
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# ── runtime: built JavaScript on Node 24 LTS; no sources, no build tools (ADR 0028) ──────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# MALLOC_ARENA_MAX is the server's own (SERVER_ENVIRONMENT in scripts/build-server.ts, ADR 0031).
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
# The web app (build/client, build/server), the compiled server and the migrations beside it.
COPY --from=build /app/build ./build
# DATA_DIR holds the uploads (shared by every instance: a shared volume, or S3 once configured),
# the mail outbox when SMTP_URL is unset, and the embedded database when DATABASE_URL is unset.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm run serve` without npm: node receives SIGTERM itself and shuts down gracefully. The heap flags
# are the server's own (SERVER_NODE_FLAGS in scripts/build-server.ts, ADR 0031).
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=16", "build/server-main.js"]
