# Parrainly on one Fly VM. Three stages: dependencies (with the compilers better-sqlite3 needs),
# build, and a slim runtime with production dependencies only, run as the non-root user `node`.
# syntax=docker/dockerfile:1
ARG NODE_VERSION=20.20.0
FROM node:${NODE_VERSION}-bookworm-slim AS base
WORKDIR /app

# better-sqlite3 compiles from source when no prebuilt binary fits: give it python and a compiler.
FROM base AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
RUN npm run build

# The same compiled modules, minus everything only the build and the tests use.
FROM deps AS prod-deps
# vnu-jar's install step (a test tool) may have fetched a Java runtime into node_modules/.cache.
RUN npm prune --omit=dev --no-audit --no-fund && rm -rf node_modules/.cache

FROM base AS runtime
ENV NODE_ENV=production
# The CLIs (admin:create, db:backup, db:restore, db:migrate) run from source with tsx.
COPY --chown=node:node package.json package-lock.json tsconfig.json ./
COPY --chown=node:node --from=prod-deps /app/node_modules ./node_modules
COPY --chown=node:node --from=build /app/build ./build
COPY --chown=node:node app ./app
COPY --chown=node:node db ./db
COPY --chown=node:node migrations ./migrations
COPY --chown=node:node scripts ./scripts
COPY --chown=node:node public ./public
# The volume is mounted at /data; the entrypoint gives it to `node`, then drops root for good.
COPY --chmod=755 scripts/docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN mkdir -p /data && chown node:node /data
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
# `npm start`'s own command, run without npm in between: npm does not pass SIGTERM on to the server
# (npm 11 exits and leaves it running), and the graceful shutdown needs it. A unit test keeps the
# two the same (tests/unit/deploy-files.test.ts).
CMD ["node", "--max-old-space-size=128", "--max-semi-space-size=4", "build/server.mjs"]
