#!/usr/bin/env bash
# Makes sure the Debian packages the tests run for real are installed: chromium (the WebCrypto
# backend and the browser examples run in headless Chromium), openssl (the certificate path
# policy is compared with `openssl verify`) and redis-server (@fhir-auth/store-redis and the fleet
# tests use a real Redis, started by the tests on a free loopback port). Installs what is
# missing with one apt-get run when root; otherwise says what to install. Never downloads a
# browser or server from anywhere else.
set -euo pipefail
missing=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v openssl >/dev/null 2>&1 || missing+=(openssl)
[ -x "${REDIS_SERVER_PATH:-/usr/bin/redis-server}" ] || missing+=(redis-server)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian packages the tests need: ${missing[*]}..."
  export DEBIAN_FRONTEND=noninteractive
  # Test processes started side by side may both get here: wait for dpkg's lock, do not fail.
  apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  # redis-server's package may start a system service on port 6379; the tests never use it.
  if [[ " ${missing[*]} " == *" redis-server "* ]] && command -v service >/dev/null 2>&1; then
    service redis-server stop >/dev/null 2>&1 || true
  fi
  exit 0
fi
echo "Missing Debian packages: ${missing[*]} (sudo apt-get install -y ${missing[*]}), then re-run." >&2
exit 1
