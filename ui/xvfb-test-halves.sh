#!/usr/bin/env bash
# The screen tests in two halves at once, each its own process and its own
# Xvfb: a test waits on frames drawn one after the other in its one window,
# so one process leaves a core idle. The long presentation and layout
# tests run in one half, everything else in the other; the flags given
# (make test's -bench . -benchtime 1x) go to the second only, so each
# benchmark still runs once. Output: the first half's, then the second's.
# Usage: ui/xvfb-test-halves.sh [go test flags for the second half...]
set -uo pipefail
cd "$(dirname "$0")/.."
long='^TestScreen(FeaturePresented|Layout.*)$'
out=$(mktemp)
trap 'rm -f "$out"' EXIT
xvfb-run -a -s "-screen 0 1920x1080x24" go test -tags screen -count=1 -run "$long" ./ui/ >"$out" 2>&1 &
first=$!
xvfb-run -a -s "-screen 0 1920x1080x24" go test -tags screen -count=1 -skip "$long" "$@" ./ui/ ./cmd/screen/ ./cmd/screen-window/
second=$?
wait "$first"
firstrc=$?
echo "=== the presentation and layout screens ($long; exit $firstrc):"
cat "$out"
[ "$firstrc" -eq 0 ] && [ "$second" -eq 0 ]
