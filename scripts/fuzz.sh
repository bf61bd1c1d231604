#!/usr/bin/env bash
# Runs each fuzz target (package:Name) for FUZZTIME and fails if one fails.
# A finding writes a new input under the package's testdata/fuzz/Name and
# fails at once. A failure without one (the fuzzing engine losing a worker
# on a loaded machine) is shown and retried once, then fails too.
# FUZZ_JOBS targets run at once, each with one worker: a target's build
# and its corpus's first pass (seconds each, mostly one core) overlap
# another's fuzzing instead of following it.
set -uo pipefail
fuzztime=$1
shift
go=${GO:-go}
jobs=${FUZZ_JOBS:-2}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

one() { # one PKG NAME LOG: fuzz one target, its report in LOG
	local pkg=$1 name=$2 log=$3 corpus="$1/testdata/fuzz/$2" before after out rc attempt
	for attempt in 1 2; do
		before=$(ls "$corpus" 2>/dev/null | wc -l)
		out=$("$go" test -run '^$' -fuzz "^$name\$" -fuzztime "$fuzztime" -fuzzminimizetime 1s -parallel 1 "$pkg" 2>&1)
		rc=$?
		echo "fuzz $name in $pkg for $fuzztime: $(tail -1 <<<"$out")" >>"$log"
		[ $rc -eq 0 ] && return 0
		tail -30 <<<"$out" >>"$log"
		after=$(ls "$corpus" 2>/dev/null | wc -l)
		if [ "$after" -gt "$before" ]; then
			echo "  a finding: the failing input is in $corpus" >>"$log"
			return 1
		fi
		[ $attempt -eq 2 ] && return 1
		echo "  no failing input was written (the engine failed, not the property): once more" >>"$log"
	done
}

i=0
for t in "$@"; do
	i=$((i + 1))
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	(one "${t%%:*}" "${t#*:}" "$dir/$i.log" || touch "$dir/$i.failed") &
done
wait
status=0
for j in $(seq 1 "$i"); do
	cat "$dir/$j.log"
	[ -e "$dir/$j.failed" ] && status=1
done
exit $status
