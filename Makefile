# Every target installs what it needs (scripts/deps.sh) so it works on a fresh machine.
SHELL := /bin/bash
# A test whose output is filtered through grep must still fail the target.
.SHELLFLAGS := -o pipefail -c
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
DEFAULT_GAME ?= assets/paytables/lusitania-92.json
# ebiten (ui/, cmd/screen) is built with cgo against X11, GL and ALSA headers;
# the screen tests run in a real window under Xvfb.
UI_BUILD_DEPS := libc6-dev libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev libxrandr-dev \
	libxxf86vm-dev libasound2-dev pkg-config
UI_TEST_DEPS := xvfb xauth
# The table server's browser seat is tested in a real headless chromium
# (cmd/tablesrv/browser_test.go); a font so its buttons lay out as shown.
BROWSER_TEST_DEPS := chromium fonts-dejavu-core
FUZZTIME ?= 3s
CRASH_ITERATIONS ?= 500
# package:target of every fuzz target; make test runs each for FUZZTIME.
FUZZ_TARGETS := ./reels/:FuzzParse ./meters/:FuzzDecode ./book/walog/:FuzzDecodeFrame \
	./book/walog/:FuzzScanSegment ./sas/:FuzzFramer ./sas/:FuzzLink \
	./jackpot/:FuzzUnmarshal ./jackpot/:FuzzUnmarshalOp ./sas/host/:FuzzReplyParser \
	./jackpot/ledger/:FuzzDecode ./jackpot/ledger/:FuzzStateJSON ./sas/:FuzzProgressiveBroadcast \
	./sas/:FuzzProgressiveReplies ./sas/host/:FuzzProgressiveDecoders ./sas/:FuzzExceptionQueue \
	./sas/:FuzzRealTimeData ./baccarat/:FuzzParse ./sas/:FuzzAFTTransfer ./sas/:FuzzAFTTransferReply \
	./sas/:FuzzAFTRegisterAndLock ./meters/:FuzzRestore ./meters/:FuzzEncodeHistory

.PHONY: all run test race-all check bench fuzz crashtest sastiming screenshots rngtest rngtest-quick par deps mutate

all: test

deps:
	@scripts/deps.sh $(UI_BUILD_DEPS) $(UI_TEST_DEPS) $(BROWSER_TEST_DEPS)

# The cabinet on simulated hardware with its ledger in ./cabinet-data and its
# screen in a window (headless when there is no display); it can also be
# driven through cabinet-data/control.sock.
run: deps
	scripts/run.sh

check: deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

# The packages the race pass checks: every package that starts a goroutine,
# in its code or its tests (internal/compliance:TestRacePassCoversEveryGoroutine
# holds the list to the tree). Left out, each for its reason given there:
# the pure cores (machine, jackpot, aft: no goroutine, so nothing for the
# detector); the link controller's, the table server's and the ticket
# system's commands, whose goroutines are jackpot/link's, jackpot/super's,
# poker/tableserver's and tito/ticketsys's, raced in process (their binaries'
# end-to-end tests under -race: make race-all); the screens (ebiten, drawn
# under Xvfb in the screen pass).
RACE_PKGS = ./rng/... ./meters/... ./sas/... ./hw/... ./internal/... ./book/... \
	./jackpot/ledger/ ./jackpot/link/ ./jackpot/super/ ./jackpot/reconcile/ ./aft/aftsim/ \
	./poker/tableserver/... ./tito/... ./reels/ ./baccarat/ \
	./cmd/cabinet/ ./cmd/sashost/ ./cmd/screen/

# The crash loops inside go test run a short version (8-20 SIGKILLs each; 3 under
# the race detector, which also builds the binaries the end-to-end tests start).
# TABLESRV_BROWSER=require: the browser test fails, not skips, without chromium.
# scripts/gotest.sh runs go test, and once more only the packages whose sole
# failure is an embedded etcd member panicking as a test kills it (an etcd
# teardown fault, etcd-io/etcd#17223; any other failure fails at once).
# Every benchmark also runs once (-benchtime 1x, at its small default size), so
# a benchmark that no longer builds, hangs or fails, fails CI, not make bench.
# The end-to-end tests that wait on processes (cabinets, the link
# controller, table servers, browsers) run side by side (t.Parallel, up to
# TEST_PARALLEL at once); the screens under Xvfb run beside the race pass.
TEST_PARALLEL ?= 4
test: check
	TABLESRV_BROWSER=require GO=$(GO) scripts/gotest.sh -count=1 -parallel $(TEST_PARALLEL) -bench . -benchtime 1x -- ./...
	$(GO) test -count=1 -tags production ./assets/
	BESIDE='ui/xvfb-test-halves.sh -bench . -benchtime 1x' scripts/beside.sh "the screens under Xvfb" -- \
	  env GO=$(GO) scripts/gotest.sh -count=1 -race -short -parallel $(TEST_PARALLEL) -- $(RACE_PKGS)
	$(MAKE) --no-print-directory fuzz

# The race detector over every package and command, the link controller's
# binary included (longer than make test allows).
race-all: deps
	RACE_ALL=1 $(GO) test -count=1 -race -short ./...

# Every fuzz target for FUZZTIME each; long runs: make fuzz FUZZTIME=10m
fuzz: deps
	GO=$(GO) scripts/fuzz.sh $(FUZZTIME) $(FUZZ_TARGETS)

# Hundreds of SIGKILLs of real processes: a log writer, a ledger writer, the
# cabinet (playing, and around cash-outs and bills), the link controller's
# ledger writer, the table server (hands in play, transfers in flight).
crashtest: deps
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -run '^TestCrashLoop$$' ./book/walog/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -run '^TestLedgerCrashLoop$$' ./meters/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestCrashLoop$$' ./cmd/cabinet/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestCashOutCrashLoop$$' ./cmd/cabinet/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestAFTCrashLoop$$' ./cmd/cabinet/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestTicketInCrashLoop$$' ./cmd/cabinet/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestPokerSeatCrashLoop$$' ./cmd/cabinet/ | grep -E 'survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestCrashLoop$$' ./jackpot/ledger/ | grep -E 'kills|survived|^(ok|FAIL|---)'
	CRASH_ITERATIONS=$(CRASH_ITERATIONS) $(GO) test -count=1 -v -timeout 60m -run '^TestCrashLoop$$' ./cmd/tablesrv/ | grep -E 'audited|survived|_test.go:|^(ok|FAIL|---)'

# Mutation testing (gremlins) of the money core, one package at a time;
# minutes per package, so not part of make test. One package:
# make mutate MUTATE_PKGS=machine
MUTATE_PKGS ?= meters machine reels rng jackpot jackpot/ledger sas
mutate: deps
	GO=$(GO) scripts/mutate.sh $(MUTATE_PKGS)

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./reels/ ./baccarat/ ./rng/ ./meters/... ./book/... ./cards/ ./poker/chemin/odds/ ./sas/ ./jackpot/ ./jackpot/ledger/ ./cmd/cabinet/ ./cmd/parsheet/
	$(GO) test -run '^$$' -bench . -benchtime 3000x ./jackpot/super/
	$(GO) test -run '^$$' -bench Redemption -benchtime 1000x ./tito/ticketsys/
	ui/xvfb-test.sh -run '^$$' -bench . -benchtime 120x

# Screenshots of the screens into ui/testdata/screenshots/.
screenshots: deps
	UI_SCREENSHOTS=$(CURDIR)/ui/testdata/screenshots ui/xvfb-test.sh -run Screen

# SAS reply latency and inter-byte gaps over a pseudo-terminal (run it on a
# quiet machine: it measures the host's scheduling as well).
sastiming: deps
	SAS_TIMING=1 $(GO) test -count=1 -v -run '^TestReplyTiming$$' ./sas/ | grep -E 'replies|^(ok|FAIL|---)'

# dieharder battery on the RNG (long); rngtest-quick is a subset.
rngtest: deps
	scripts/rngtest.sh

rngtest-quick: deps
	QUICK=1 scripts/rngtest.sh

# Regenerate the PAR sheets of the shipped paytables and table definitions.
par: deps
	for f in assets/paytables/*.json assets/tables/*.json assets/chemin/*.json; do \
	  $(GO) run ./cmd/parsheet par "$$f" > "$${f%.json}.par.txt" || exit 1; \
	done
