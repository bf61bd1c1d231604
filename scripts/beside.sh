#!/usr/bin/env bash
# beside.sh NAME -- COMMAND... : runs the command in $BESIDE (a shell
# command line) in the background while COMMAND runs in the foreground,
# then prints the background one's output under NAME and fails if either
# failed. make test runs the screens under Xvfb beside the race pass: the
# race pass mostly waits on cabinet processes, the screens mostly draw, so
# side by side they take the time of the longer one on two cores.
set -uo pipefail
name=$1
shift
[ "${1:-}" = "--" ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
bash -c "$BESIDE" >"$out" 2>&1 &
bg=$!
"$@"
fg=$?
wait "$bg"
bgrc=$?
echo "=== $name (run beside the command above; exit $bgrc):"
cat "$out"
[ "$fg" -eq 0 ] && [ "$bgrc" -eq 0 ]
