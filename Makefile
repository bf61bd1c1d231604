# Every target installs what it needs (scripts/deps.sh) so it works on a fresh machine.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
GO ?= go
DEFAULT_GAME ?= assets/paytables/lusitania-92.json
FUZZTIME ?= 10s

.PHONY: all run test check bench fuzz rngtest rngtest-quick par deps

all: test

deps:
	@scripts/deps.sh

# Until the cabinet exists (issue 4), "run" shows the certified PAR sheet of
# the default game.
run: deps
	$(GO) run ./cmd/parsheet par $(DEFAULT_GAME)

check: deps
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

test: check
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -tags production ./assets/
	$(GO) test -count=1 -race ./rng/...
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) -fuzzminimizetime 1s ./reels/

# Long fuzzing: make fuzz FUZZTIME=10m
fuzz: deps
	$(GO) test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) -fuzzminimizetime 1s ./reels/

bench: deps
	$(GO) test -run '^$$' -bench . -benchmem ./reels/ ./rng/

# dieharder battery on the RNG (long); rngtest-quick is a subset.
rngtest: deps
	scripts/rngtest.sh

rngtest-quick: deps
	QUICK=1 scripts/rngtest.sh

# Regenerate the PAR sheets of the shipped paytables.
par: deps
	for f in assets/paytables/*.json; do \
	  $(GO) run ./cmd/parsheet par "$$f" > "$${f%.json}.par.txt" || exit 1; \
	done
