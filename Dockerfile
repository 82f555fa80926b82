# The Governance Evaluation Service on Node.js 24 LTS, Debian trixie (glibc 2.41): the uWebSockets.js
# build for Node 22/24 needs glibc >= 2.38 (docs/operations.md, "Supported Node.js runtimes").
# The base is pinned to an exact release; bump it together with NODE24_VERSION in
# scripts/test-node24.sh and record the run. Pinning the digest as well (node:X-trixie-slim@sha256:...)
# is the registry-side step this repository cannot take without pulling the image.
ARG NODE_IMAGE=node:24.21.0-trixie-slim

# Build stage: dev dependencies, TypeScript and the console SPA. --ignore-scripts: no package's
# install script runs (native modules ship prebuilt binaries), and a future `prepare` build cannot
# run before the sources are copied.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK is an npm workspace (packages/sdk): npm ci needs its package.json to link it.
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --ignore-scripts
COPY . .
RUN npm run build

# Runtime stage: production dependencies only, the build output, a non-root user, tini as PID 1.
FROM ${NODE_IMAGE} AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 METRICS_HOST=0.0.0.0 METRICS_PORT=9464 DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/console/dist ./console/dist
COPY --from=build /app/examples ./examples
# gov scan reads the measured precision and links the policy pages (SARIF precision and helpUri).
COPY --from=build /app/docs/precision.json ./docs/precision.json
COPY --from=build /app/docs/policies ./docs/policies
# gov_build_info's revision label: the image holds no .git (see .dockerignore), so the commit comes in as a
# build argument: docker build --build-arg GIT_REVISION=$(git rev-parse HEAD) . (unset: "unknown").
ARG GIT_REVISION=""
ENV GIT_REVISION=$GIT_REVISION
# The service refuses a DATA_DIR that group or others can read; a new volume copies this owner and mode.
RUN mkdir -p /data && chown node:node /data && chmod 700 /data
VOLUME /data
# The official image's unprivileged user (uid 1000); nothing under /app is writable by it.
USER node
EXPOSE 8080 9464
# Readiness on the operators' listener (store open, pool alive, not shutting down). The slim image has
# no curl: Node's own fetch asks it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || 9464) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# tini as PID 1 forwards SIGTERM to Node (graceful drain, SHUTDOWN_DEADLINE_MS) and reaps zombies.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/src/server/main.js"]
