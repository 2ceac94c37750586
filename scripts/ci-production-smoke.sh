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
cp -r package.json package-lock.json tsconfig.json patches build app db migrations scripts public "$dir/"
cd "$dir"
echo "== npm ci --omit=dev in $dir"
npm ci --omit=dev --no-audit --no-fund --loglevel=error
if [ -d node_modules/vite ] || [ -d node_modules/@playwright ]; then echo "dev dependencies were installed"; exit 1; fi
# npm ci's postinstall applied the patches (patches/, decision 240).
grep -q "Parrainly patch" node_modules/@remix-run/router/dist/router.cjs.js || { echo "the router patch was not applied"; exit 1; }
grep -q "Parrainly patch" node_modules/@remix-run/react/dist/routes.js || { echo "the Remix React patch was not applied"; exit 1; }
grep -q "Parrainly patch" node_modules/react-router-dom/server.js || { echo "the React Router DOM patch was not applied"; exit 1; }
grep -q "Parrainly patch" node_modules/@remix-run/server-runtime/dist/data.js || { echo "the server runtime patch was not applied"; exit 1; }
grep -q "Parrainly patch" node_modules/react-dom/cjs/react-dom-server.node.production.min.js || { echo "the React DOM patch was not applied"; exit 1; }

port=$((20000 + RANDOM % 20000))
# The image's command: `npm start`'s script run directly, as the Dockerfile's CMD does, so that the
# SIGTERM below reaches the server (npm does not pass it on).
start=$(node -p "require('./package.json').scripts.start")
NODE_ENV=production PORT=$port SESSION_SECRET=ci-smoke-secret-0123456789 DATABASE_URL="file:$dir/data/app.db" \
  UPLOADS_DIR="$dir/data/uploads" LOG_REQUESTS=0 sh -c "exec $start" > "$dir/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 60); do
  if curl -fsS "http://localhost:$port/healthz" > /dev/null 2>&1; then break; fi
  if ! kill -0 "$pid" 2>/dev/null; then cat "$dir/server.log"; echo "server exited"; exit 1; fi
  sleep 0.5
done
# Each answer is saved whole, then searched: piped into `grep -q`, which stops at the first match,
# a page longer than a pipe's buffer made curl fail to write the rest (curl 23) and, under
# pipefail, the check with it.
get() { curl -fsS "http://localhost:$port$1" -o "$dir/$2"; }
get /healthz healthz && [ "$(cat "$dir/healthz")" = ok ] || { cat "$dir/server.log"; echo "healthz did not answer ok"; exit 1; }
get "/?lng=en" home.html && grep -q '<html lang="en"' "$dir/home.html" || { cat "$dir/server.log"; echo "home page did not render"; exit 1; }
get /tesla tesla.html && grep -q 'Tesla' "$dir/tesla.html" || { cat "$dir/server.log"; echo "platform page did not render"; exit 1; }
kill -TERM "$pid"
wait "$pid" || true
grep -q "database closed" "$dir/server.log" || { cat "$dir/server.log"; echo "no graceful shutdown"; exit 1; }
echo "== production-only install serves /healthz and pages, and shuts down cleanly"
