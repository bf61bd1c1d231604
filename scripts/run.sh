#!/usr/bin/env bash
# make run: the cabinet on simulated hardware with its screen in a window.
# The screen is a separate process (cmd/screen) talking to the cabinet's
# control socket; without a display the cabinet runs headless.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bin
go build -o bin/cabinet ./cmd/cabinet
DATA=${DATA:-cabinet-data}
bin/cabinet --data "$DATA" "$@" &
cab=$!
trap 'kill -TERM $cab 2>/dev/null || true; wait $cab 2>/dev/null || true' EXIT
if [ -z "${DISPLAY:-}" ]; then
  echo "no display (DISPLAY is unset): the cabinet runs headless; Ctrl-C stops it" >&2
  wait $cab
else
  go build -o bin/screen ./cmd/screen
  go build -o bin/screen-window ./cmd/screen-window
  bin/screen --control "$DATA/control.sock"
fi
