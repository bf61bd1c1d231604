#!/usr/bin/env bash
# Mutation testing of the money core with gremlins, one package at a time:
# each run mutates only the package's own files (its sub-packages are
# excluded: they get runs of their own) and kills a mutant with the
# package's own tests. Prints the figures of each package at the end; the
# full output of each run (every mutant and its status) is kept in
# mutate.out/PKG.log, with the machine-readable results in mutate.out/PKG.json.
#
# Usage: scripts/mutate.sh [package-dir...]   (default: the money core)
# Environment: MUTATE_WORKERS (default 2), MUTATE_TIMEOUT_COEFF (default 10:
# a mutant's tests may take 10 times the coverage run before the mutant
# counts as timed out, so a loaded machine does not turn slow tests into
# timeouts).
set -uo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
# v0.6.0 is the release the module proxy serves; it builds with the Go of go.mod.
version=v0.6.0
bin=$PWD/bin
if ! [ -x "$bin/gremlins" ] || ! "$bin/gremlins" --version 2>/dev/null | grep -q .; then
	echo "installing gremlins $version into bin/" >&2
	GOBIN=$bin "$go" install "github.com/go-gremlins/gremlins/cmd/gremlins@$version" || exit 1
fi
workers=${MUTATE_WORKERS:-2}
coeff=${MUTATE_TIMEOUT_COEFF:-10}
out=mutate.out
mkdir -p "$out"

# package dir and the sub-packages its run leaves to their own runs
declare -A subpackages=(
	[meters]='^inspect/'
	[machine]=''
	[reels]=''
	[rng]=''
	[jackpot]='^(ledger|link|super)/'
	[jackpot/ledger]=''
	[sas]='^(host|metercode)/'
)
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(meters machine reels rng jackpot jackpot/ledger sas)

status=0
summary=()
for p in "${pkgs[@]}"; do
	p=${p#./}
	p=${p%/}
	args=(unleash --workers "$workers" --timeout-coefficient "$coeff" -o "$out/${p//\//_}.json")
	ex=${subpackages[$p]-}
	[ -n "$ex" ] && args+=(-E "$ex")
	log="$out/${p//\//_}.log"
	echo "== gremlins over ./$p ($(date -u +%FT%TZ)), log in $log"
	if ! "$bin/gremlins" "${args[@]}" "./$p" >"$log" 2>&1; then
		echo "gremlins failed on ./$p:" >&2
		tail -20 "$log" >&2
		status=1
		continue
	fi
	grep -E '^(Mutation testing completed|Killed:|Timed out:|Test efficacy:|Mutator coverage:)' "$log"
	summary+=("$(printf '%-16s %s; %s' "$p" "$(grep -E '^Killed:' "$log")" "$(grep -E '^Test efficacy:' "$log")")")
done
echo
echo "== summary (efficacy = killed / (killed + lived); timed out and not covered are outside it)"
printf '%s\n' "${summary[@]}"
exit $status
