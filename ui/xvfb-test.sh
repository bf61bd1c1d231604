#!/usr/bin/env bash
# The screen tests: the real window under Xvfb, screenshots checked (and kept
# in ui/testdata/screenshots/ when UI_SCREENSHOTS points there).
# Usage: ui/xvfb-test.sh [go test flags...]   e.g. -run Service, -bench . -run '^$'
# Needs the Debian packages xvfb and xauth, and ebiten's build packages.
set -euo pipefail
cd "$(dirname "$0")/.."
exec xvfb-run -a -s "-screen 0 1920x1080x24" go test -tags screen -count=1 "$@" ./ui/ ./cmd/screen/ ./cmd/screen-window/
