# syntax=docker/dockerfile:1
#
# Riffscribe: one image for the API server and for workers (README, "Running in production").
#   API:    docker run ... riffscribe                (node apps/server/dist/main.js)
#   worker: docker run ... riffscribe node apps/server/dist/worker.js
#
# Everything comes from the npm registry: onnxruntime-node ships its CPU binaries inside its npm
# package, and ffmpeg/ffprobe are the static binaries of @ffmpeg-installer/@ffprobe-installer. No
# install script runs (`--ignore-scripts`): onnxruntime-node's would fetch CUDA files from outside
# the npm registry on linux/x64 (the repository's .npmrc sets ignore-scripts too), and the installers'
# postinstall only sets an execute bit, done below for every user. onnxruntime-node's binaries for
# other systems (about 240 MB) are left out of the runtime image.

ARG NODE_IMAGE=node:20.20-bookworm-slim

# ---- deps: production dependencies only, for the runtime stage ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip \
    npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
COPY packages/core/package.json packages/core/
COPY packages/engine/package.json packages/engine/
COPY packages/lab/package.json packages/lab/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --omit=dev --ignore-scripts \
    && find node_modules/@ffmpeg-installer node_modules/@ffprobe-installer -type f \
         \( -name ffmpeg -o -name ffprobe \) -exec chmod 0755 {} + \
    && arch="$(node -p process.arch)" \
    && find node_modules/onnxruntime-node/bin/napi-v6 -mindepth 2 -maxdepth 2 -type d \
         ! -path "*/linux/$arch" -exec rm -rf {} + \
    && npm cache clean --force

# ---- build: every dependency, TypeScript and the web app ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV ONNXRUNTIME_NODE_INSTALL=skip \
    npm_config_update_notifier=false
COPY package.json package-lock.json .npmrc ./
COPY packages/core/package.json packages/core/
COPY packages/engine/package.json packages/engine/
COPY packages/lab/package.json packages/lab/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
RUN npm ci --ignore-scripts
COPY tsconfig.base.json ./
COPY packages packages
COPY apps apps
RUN npm run build

# ---- runtime: production dependencies and built output, run as a non-root user ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    npm_config_update_notifier=false
WORKDIR /app
# Owned by root and read-only for the app user; only DATA_DIR (and /tmp) are writable.
COPY --from=deps /app ./
COPY --from=build /app/packages/core/dist packages/core/dist
COPY --from=build /app/packages/engine/dist packages/engine/dist
COPY --from=build /app/packages/engine/models packages/engine/models
COPY --from=build /app/apps/server/dist apps/server/dist
COPY --from=build /app/apps/web/dist apps/web/dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# /api/health answers 503 naming the failing part (database, storage, queue). Node's fetch: the
# slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "apps/server/dist/main.js"]
