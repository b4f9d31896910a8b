#!/usr/bin/env bash
# Makes sure Debian's redis-server is installed: @fhir-auth/store-redis and the fleet tests run
# against a real Redis, which the tests start themselves on a free loopback port.
set -euo pipefail
if [ -x "${REDIS_SERVER_PATH:-/usr/bin/redis-server}" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian redis-server (needed by the Redis store tests)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends redis-server >/dev/null
  # The package starts a system service on port 6379; the tests never use it.
  (command -v service >/dev/null 2>&1 && service redis-server stop >/dev/null 2>&1) || true
  exit 0
fi
echo "redis-server is missing: install Debian's package (sudo apt-get install -y redis-server) and re-run." >&2
exit 1
