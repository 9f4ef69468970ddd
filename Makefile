# editord: `make test` is what CI runs (see .ci/run); `make run` serves the sample workspace.
GO ?= go
BIN := bin/editord
WEB := protocol/web
ADDR ?= 127.0.0.1:8765

.PHONY: build test test-short bench bench-page lsp run run-stdio schemas screenshots stress vet web

build:
	$(GO) build -o $(BIN) ./cmd/editord

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

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
# --allow-run turns editor::run on (go test ./... from the page's Run panel).
run: build
	@mkdir -p .state && [ -d .state/sample ] || ./testdata/sample-repo.sh .state/sample
	$(BIN) serve --http $(ADDR) --root .state/sample --state-dir .state/record --allow-run

# The same workspace over MCP on stdio (what an MCP client spawns).
run-stdio: build
	@mkdir -p .state && [ -d .state/sample ] || ./testdata/sample-repo.sh .state/sample
	$(BIN) serve --root .state/sample --state-dir .state/record --allow-run

# The page's bundle, protocol/web/dist (committed; the binary embeds it):
# type-checked and rebuilt from the packages pinned in package-lock.json.
# Deterministic: .ci/run rebuilds it and fails if the result differs.
web: $(WEB)/node_modules/.package-lock.json
	cd $(WEB) && npx --no-install tsc --noEmit -p . && node build.mjs

$(WEB)/node_modules/.package-lock.json: $(WEB)/package-lock.json
	cd $(WEB) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# The README's pictures of the page, taken by its browser test.
screenshots:
	EDITORD_SCREENSHOTS=$(CURDIR)/docs $(GO) test -count=1 -run '^(TestScreenshots|TestReviewAgentTurn|TestUndoWhatIDidRecently)$$' ./protocol/pagetest

# The page's figures in headless chromium (README, "The person's editor"): an
# agent's save to the text in the page, an agent's edit into a tab with
# unsaved edits, load with 20 tabs, a 5 MB file (first lines, and scrolled
# end to end), the command palette's keystroke, the bundle's size; each
# prints its goal.
bench-page:
	$(GO) test -count=1 -run '^$$' -bench 'Page' -benchtime 1x -timeout 20m ./protocol/pagetest

# The long versions of the stress suites (docs/reliability.md), bounded in
# time: the jail fuzzer for FUZZTIME, the wire fast paths against
# encoding/json for WIREFUZZTIME each, then every suite at full size
# (EDITORD_STRESS=long). `make test` runs the quick versions (the fuzz
# targets' seeds included).
FUZZTIME ?= 3m
GITFUZZTIME ?= 1m
WIREFUZZTIME ?= 30s
WIREFUZZ := FuzzDecodeArgs FuzzUnquote FuzzAppendString FuzzMarshal FuzzUnescapeHTML FuzzValueEnd FuzzObjectMembers FuzzNumbersFit
PROTOFUZZ := FuzzOpenJSON FuzzSearchJSON FuzzParseToolCall FuzzEncodeToolResponse
stress:
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzJailPaths$$' -fuzztime $(FUZZTIME) ./editor
	$(GO) test -count=1 -run '^$$' -fuzz '^FuzzCheckoutNames$$' -fuzztime $(GITFUZZTIME) ./gitops
	for f in $(WIREFUZZ); do $(GO) test -count=1 -run '^$$' -fuzz "^$$f\$$" -fuzztime $(WIREFUZZTIME) ./editor/wire || exit 1; done
	for f in $(PROTOFUZZ); do $(GO) test -count=1 -run '^$$' -fuzz "^$$f\$$" -fuzztime $(WIREFUZZTIME) ./protocol || exit 1; done
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -v -run 'Stress|BadInput|FuzzJailPaths' ./editor ./cmd/editord ./protocol
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -run 'GitDirProperty|Hostile|FIFO|FuzzTreeEntryName' ./gitops
	EDITORD_STRESS=long EDITORD_BROWSER_TESTS=1 $(GO) test -count=1 -timeout 40m -v -run '^TestCoeditInterleavings$$' ./protocol/pagetest
	EDITORD_STRESS=long $(GO) test -count=1 -timeout 20m -run '$(HARDENING)' ./protocol ./editor ./search ./shell ./cmd/editord

# Issue 19's attacks, one test each (docs/reliability.md, "Hardening, round
# three"); the Stress ones among them run above too.
HARDENING = TestHTTPEveryEventReachesABusyClient|TestHTTPUnknownSessionRefused|TestRingStoreBoundsAndReplay|TestHTTPSessions|TestReplaceRefusesAGrowingResultBeforeMakingIt|TestReplacePatchesBoundedInAll|TestReplaceMeasuresBeforeBuilding|TestReplaceStreamingIsTheReference|TestSearchContextBounded|TestGitLogAndBlameCutHostileSubjects|TestPlantedStateRefused|TestOpenKeepsTheTokenOutOfArgv|TestWalkSweepsStaleTemps|TestWatchSedOnOpenBufferAfterRestartHasPatch|TestWatchExternalThenGuardedSaveBothJournaled|TestWatchGuardedSaveThenExternalPatchFollowsIt|TestStressJournalReplaysInterleavedWriters|TestStressReplaceKilledMidway

# The language servers the code intelligence tests and benchmarks run
# (editor/lsp), pinned: gopls built from the Go module proxy into
# testdata/lsp/bin, typescript-language-server, typescript and pyright from
# testdata/lsp/package-lock.json. Neither is committed; .ci/run runs this.
GOPLS_VERSION := v0.23.0
LSP := testdata/lsp
lsp: $(LSP)/bin/.gopls-$(GOPLS_VERSION) $(LSP)/node_modules/.package-lock.json

$(LSP)/bin/.gopls-$(GOPLS_VERSION):
	GOBIN=$(CURDIR)/$(LSP)/bin GOFLAGS= GOTOOLCHAIN=local $(GO) install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	touch $@

$(LSP)/node_modules/.package-lock.json: $(LSP)/package-lock.json
	cd $(LSP) && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# Regenerate the golden tool schemas after changing a request or response
# type, then the page's wire types from them (protocol/web/src/wire.ts).
schemas:
	$(GO) test ./protocol -run '^TestGoldenSchemas$$' -update
	$(GO) test ./protocol -run '^TestPageWireTypes$$' -update

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
