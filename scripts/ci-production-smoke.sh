#!/usr/bin/env bash
# CI: what the Docker image's last stage holds, installed with production dependencies only
# (`npm ci --omit=dev`), started with the image's command (`npm start`'s script) on a fresh database. Fails if the server needs a
# dev dependency at run time, does not answer /healthz, or cannot render a page.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/server.mjs ] || { echo "no build: run npm run build first"; exit 1; }

dir=$(mktemp -d)
trap 'if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; fi; rm -rf "$dir"' EXIT
# The same files as the Dockerfile's runtime stage copies.
cp -r package.json package-lock.json tsconfig.json build app db migrations scripts public "$dir/"
cd "$dir"
echo "== npm ci --omit=dev in $dir"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
if [ -d node_modules/vite ] || [ -d node_modules/@playwright ]; then echo "dev dependencies were installed"; exit 1; fi
