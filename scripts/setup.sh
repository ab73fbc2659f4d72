#!/usr/bin/env bash
# Installs what a fresh machine lacks for hedgebench, idempotently: Debian packages (chromium for the
# report's browser test among them), npm packages, bundles.
# Safe to run again: each step checks before it acts. Run as root (or with sudo available).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v ssh >/dev/null || need+=(openssh-client)
command -v sshd >/dev/null || [ -x /usr/sbin/sshd ] || need+=(openssh-server)
command -v rsync >/dev/null || need+=(rsync)
command -v ip >/dev/null || need+=(iproute2)
command -v ps >/dev/null || need+=(procps)
# openssl makes the certificates of a TLS-only Redis (scripts/redis-tls.sh: the lab and its tests).
command -v openssl >/dev/null || need+=(openssl)
# Debian's chromium: the report's browser test opens report.html in it (headless); nothing is downloaded at run time.
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "setup: installing Debian packages: ${need[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The Debian package starts services we do not use; hedgebench starts its own redis and sshd.
  $SUDO service redis-server stop >/dev/null 2>&1 || true
  $SUDO service ssh stop >/dev/null 2>&1 || true
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: hedgebench needs Node.js 20 or newer, found $(node --version). Install Node.js 20 and run again." >&2
  exit 1
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci" >&2
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent build
echo "setup: ready ($(node --version), $(redis-server --version | cut -d' ' -f3))" >&2
