#!/usr/bin/env bash
# Runs each fuzz target (package:Name) for FUZZTIME and fails if one fails.
# A finding writes a new input under the package's testdata/fuzz/Name and
# fails at once. A failure without one (the fuzzing engine losing a worker
# on a loaded machine) is shown and retried once, then fails too.
set -uo pipefail
fuzztime=$1
shift
go=${GO:-go}
status=0
for t in "$@"; do
	pkg=${t%%:*}
	name=${t#*:}
	corpus="$pkg/testdata/fuzz/$name"
	for attempt in 1 2; do
		before=$(ls "$corpus" 2>/dev/null | wc -l)
		out=$("$go" test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -fuzzminimizetime 1s "$pkg" 2>&1)
		rc=$?
		echo "fuzz $name in $pkg for $fuzztime: $(tail -1 <<<"$out")"
		[ $rc -eq 0 ] && break
		tail -30 <<<"$out"
		after=$(ls "$corpus" 2>/dev/null | wc -l)
		if [ "$after" -gt "$before" ]; then
			echo "  a finding: the failing input is in $corpus"
			status=1
			break
		fi
		if [ $attempt -eq 2 ]; then
			status=1
			break
		fi
		echo "  no failing input was written (the engine failed, not the property): once more"
	done
done
exit $status
