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

# Serve the sample workspace over MCP on stdio (what an MCP client spawns).
run: build
	$(BIN) serve --root testdata/sample --state-dir .state/sample

# Regenerate the golden tool schemas after changing a request or response type.
schemas:
	$(GO) test ./protocol -run TestGoldenSchemas -update

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
