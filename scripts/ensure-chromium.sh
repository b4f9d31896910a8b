#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed: the crypto-webcrypto contract suite and the browser
# example run in real headless Chromium. Never downloads a browser from anywhere else.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian chromium (needed by the browser tests)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends chromium >/dev/null
  exit 0
fi
echo "Chromium is missing: install Debian's package (sudo apt-get install -y chromium) and re-run." >&2
exit 1
