# The LoopX App as a container: `docker build -t loopx .` then see compose.yaml, or
# `docker run -p 3000:3000 --env-file loopx.env -v loopx-data:/app/data loopx`.
# test/install/dockerfile.test.ts replays these steps (no container engine runs there).
FROM node:24.21.0-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so a source change reuses this layer. Every workspace's manifest is
# needed for `npm ci` to match the lockfile.
COPY package.json package-lock.json .npmrc ./
COPY app/package.json app/
COPY action/package.json action/
COPY packages/cli/package.json packages/cli/
COPY packages/core/package.json packages/core/
COPY packages/demo/package.json packages/demo/
COPY packages/github/package.json packages/github/
COPY packages/harness/package.json packages/harness/
COPY packages/sandbox/package.json packages/sandbox/
COPY packages/store/package.json packages/store/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

COPY app app
COPY packages packages
COPY migrations migrations

# The embedded store (PGlite) keeps its data here: mount a volume, or set DATABASE_URL.
RUN mkdir -p data && chown 1000:1000 data
ENV LOOPX_DATA_DIR=/app/data PORT=3000 HOST=0.0.0.0
VOLUME /app/data

# The image's `node` user, by number so that a runtime can verify it is not root.
USER 1000:1000
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is PID 1, so SIGTERM reaches the App, which drains and closes its store.
CMD ["node", "--import", "tsx", "app/src/run.ts"]
