#!/usr/bin/env bash
# Installs what the project's make targets need on a fresh Debian machine.
# Usage: scripts/deps.sh [debian-package...]   (Go itself is expected in PATH
# or at /usr/local/go/bin, as on the project's machines.)
set -euo pipefail
missing=()
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian packages: ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! command -v go >/dev/null 2>&1; then
  echo "go not found: install Go $(sed -n 's/^go //p' "$(dirname "$0")/../go.mod") or add /usr/local/go/bin to PATH" >&2
  exit 1
fi
go mod download
