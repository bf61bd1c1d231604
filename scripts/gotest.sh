#!/usr/bin/env bash
# gotest.sh FLAGS... -- PACKAGES...: go test, once more for the packages
# whose only failure is an embedded etcd member panicking as a test kills
# it. etcd closes a member's storage before its gRPC server stops, so a
# request still arriving (a watch re-created by a client) dereferences a
# closed bbolt transaction (etcd-io/etcd#17223, #14256): a fault of the
# test cluster's teardown, not of the code under test. Any other failure
# fails at once; the retry is said loudly, with the package's first output.
set -uo pipefail
go=${GO:-go}
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
shift || true
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$go" test "${flags[@]}" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
[ "$rc" -eq 0 ] && exit 0
# go test prints each package's output in one block ending with its
# ok/FAIL line: a failed package whose block holds the signature is a
# teardown panic; any other failed package (or a build failure) is real.
verdict=$(awk '
	/^(ok|FAIL|\?)[ \t]+[^ \t]+/ {
		if ($1 == "FAIL") { print (teardown ? "retry " : "real ") $2 }
		teardown = 0; next
	}
	/go\.etcd\.io\/bbolt\.\(\*(Tx|Cursor)\)/ { teardown = 1 }
	/^# / { print "real build" }
' "$out")
if [ -z "$verdict" ] || grep -q '^real' <<<"$verdict"; then
	exit "$rc"
fi
pkgs=$(awk '{print $2}' <<<"$verdict" | sort -u)
echo "gotest.sh: an embedded etcd member panicked as it was killed (etcd-io/etcd#17223) in: $pkgs; running those once more" >&2
# shellcheck disable=SC2086
exec "$go" test "${flags[@]}" $pkgs
