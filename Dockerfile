# The Governance Evaluation Service (Node.js 20 on Debian bookworm: the uWS native build needs glibc).
FROM node:20-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK is an npm workspace (packages/sdk): npm ci needs its package.json to link it.
COPY packages/sdk/package.json packages/sdk/
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev
# gov_build_info's revision label: the image holds no .git (see .dockerignore), so the commit comes in as a
# build argument: docker build --build-arg GIT_REVISION=$(git rev-parse HEAD) . (unset: "unknown").
ARG GIT_REVISION=""
ENV GIT_REVISION=$GIT_REVISION
ENV HOST=0.0.0.0 PORT=8080 METRICS_HOST=0.0.0.0 METRICS_PORT=9464 DATA_DIR=/data
# The service refuses a DATA_DIR that group or others can read; a new volume copies this mode.
RUN mkdir -p /data && chmod 700 /data
VOLUME /data
EXPOSE 8080 9464
CMD ["node", "dist/src/server/main.js"]
