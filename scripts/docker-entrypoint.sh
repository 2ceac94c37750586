#!/bin/sh
# Fly mounts a new volume owned by root: hand /data to the `node` user, then run the command as
# `node` (setpriv is part of util-linux, present in every Debian image), never as root.
set -eu
if [ "$(id -u)" = "0" ]; then
  mkdir -p /data/uploads /data/backups
  chown -R node:node /data
  exec setpriv --reuid=node --regid=node --init-groups "$@"
fi
exec "$@"
