# syntax=docker/dockerfile:1
# Vitrina: the shop as one image. Build: `docker build -t vitrina .`; run it with compose.yaml, or with
# at least NODE_ENV=production (the default here), SESSION_SECRET and PUBLIC_URL (docs/production.md).
# The lockfile carries the native binaries (sharp, argon2, esbuild) for linux/amd64; build for that
# platform (`--platform linux/amd64`) or refresh the lockfile on the target platform first.

ARG NODE_VERSION=22

# ── build: every dependency, the React Router build, then only the production dependencies ──────
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# `npm ci` can refuse this lockfile (npm/cli#4828, lighthouse's moving third-party-web@latest):
# fall back to `npm install` from the same lockfile, as .ci/run does.
RUN npm ci --no-audit --no-fund || npm install --no-audit --no-fund
COPY . .
RUN npx react-router build && npm prune --omit=dev --no-audit --no-fund

# ── runtime: TypeScript sources run through tsx (a production dependency), no build tools ─────────
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json /app/tsconfig.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/src ./src
# DATA_DIR holds the uploads (shared by every instance: a shared volume, or S3 once configured),
# the mail outbox when SMTP_URL is unset, and the embedded database when DATABASE_URL is unset.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# `npm run serve` without npm: node receives SIGTERM itself and shuts down gracefully.
CMD ["node", "--import", "tsx", "src/server/main.ts"]
