#!/usr/bin/env bash
# Makes sure the OpenSSL command line is installed: the test PKI's differential test compares the
# certificate path policy with `openssl verify` (it skips, saying so, without the binary).
set -euo pipefail
if command -v openssl >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian openssl (needed by the OpenSSL differential test)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends openssl >/dev/null
  exit 0
fi
echo "openssl is missing: the OpenSSL differential test will be skipped (sudo apt-get install -y openssl)." >&2
