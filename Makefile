# editord: `make test` is what CI runs (see .ci/run); `make run` serves the sample workspace.
GO ?= go
BIN := bin/editord

.PHONY: build test test-short bench run schemas stress vet

build:
	$(GO) build -o $(BIN) ./cmd/editord

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...

test-short:
	$(GO) test -count=1 -short ./...

# Side-by-side benchmarks against ripgrep, fzf and git on a large real tree
# (assembled by the script itself); prints ratios. Not run by CI.
bench: build
	./testdata/bench/run.sh

# Serve a copy of the sample workspace over MCP on stdio (what an MCP client
# spawns); edits land in .state/sample, never in the tracked testdata.
run: build
	@mkdir -p .state && [ -d .state/sample ] || cp -r testdata/sample .state/sample
	$(BIN) serve --root .state/sample --state-dir .state/record

# The long versions of the stress suites (docs/reliability.md), bounded in
# time: the jail fuzzer for FUZZTIME, then every suite at full size
# (EDITORD_STRESS=long). `make test` runs the quick versions.
FUZZTIME ?= 3m
stress:
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzJailPaths$$' -fuzztime $(FUZZTIME) ./editor
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -v -run 'Stress|BadInput|FuzzJailPaths' ./editor ./cmd/editord ./protocol

# Regenerate the golden tool schemas after changing a request or response type.
schemas:
	$(GO) test ./protocol -run TestGoldenSchemas -update

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
