# editord: `make test` is what CI runs (see .ci/run); `make run` serves the sample workspace.
GO ?= go
BIN := bin/editord
WEB := protocol/web
ADDR ?= 127.0.0.1:8765

.PHONY: build test test-short bench bench-page run run-stdio schemas screenshots stress vet web

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

# Serve a copy of the sample workspace (a git repository of its own with a
# little history: testdata/sample-repo.sh) over HTTP: the editor page at
# http://$(ADDR)/ (open the printed link, it carries the token) and MCP at
# /mcp. Edits land in .state/sample, never in the tracked testdata.
run: build
	@mkdir -p .state && [ -d .state/sample ] || ./testdata/sample-repo.sh .state/sample
	$(BIN) serve --http $(ADDR) --root .state/sample --state-dir .state/record

# The same workspace over MCP on stdio (what an MCP client spawns).
run-stdio: build
	@mkdir -p .state && [ -d .state/sample ] || ./testdata/sample-repo.sh .state/sample
	$(BIN) serve --root .state/sample --state-dir .state/record

# The page's bundle, protocol/web/dist (committed; the binary embeds it):
# type-checked and rebuilt from the packages pinned in package-lock.json.
# Deterministic: .ci/run rebuilds it and fails if the result differs.
web: $(WEB)/node_modules/.package-lock.json
	cd $(WEB) && npx --no-install tsc --noEmit -p . && node build.mjs

$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	cd $(WEB) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# The README's pictures of the page, taken by its browser test.
screenshots:
	EDITORD_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run '^(TestScreenshots|TestReviewAgentTurn)$$' ./protocol/pagetest

# The page's figures in headless chromium (README, "The person's editor"): an
# agent's save to the text in the page, load with 20 tabs, a 5 MB file, the
# bundle's size.
bench-page:
	$(GO) test -count=1 -run '^$$' -bench 'Page' -benchtime 1x -timeout 20m ./protocol/pagetest

# The long versions of the stress suites (docs/reliability.md), bounded in
# time: the jail fuzzer for FUZZTIME, then every suite at full size
# (EDITORD_STRESS=long). `make test` runs the quick versions.
FUZZTIME ?= 3m
GITFUZZTIME ?= 1m
stress:
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzJailPaths$$' -fuzztime $(FUZZTIME) ./editor
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzCheckoutNames$$' -fuzztime $(GITFUZZTIME) ./gitops
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -v -run 'Stress|BadInput|FuzzJailPaths' ./editor ./cmd/editord ./protocol
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -run 'GitDirProperty|Hostile|FIFO|FuzzTreeEntryName' ./gitops

# Regenerate the golden tool schemas after changing a request or response type.
schemas:
	$(GO) test ./protocol -run TestGoldenSchemas -update

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
