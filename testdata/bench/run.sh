#!/usr/bin/env bash
# Side-by-side benchmarks of editord against ripgrep, fzf and git on a large
# real source tree. Run by `make bench` (after `make build`).
#
#   make bench                  # full corpus (50,000+ files), assembled once
#   BENCH_SMALL=1 make bench    # one module (~1,600 files), for quick iteration
#
# The corpus is assembled once into .bench/corpus (or .bench/corpus-small) from
# modules downloaded with `go mod download` into a private module cache
# (.bench/modcache), committed into one fresh git repository, and reused by
# later runs. Delete the folder to rebuild it. Other knobs:
#   BENCH_BIN=PATH        the binary under test (default bin/editord)
#   BENCH_RUNS=N          runs per slow measurement (default 5, minimum 5)
#   BENCH_ONLY=a,b        only these groups: search,find,git,io,memory,changes,scale,history,agent,run,lsp,turns
#                         (lsp alone runs on its own workspace, without the corpus)
#   BENCH_BASE_BIN=PATH   a binary from before turns, for the turns group's save-cost row
#   BENCH_LSP_SANDBOX=0   the lsp group's gopls unconfined (sandbox = false), to measure the sandbox
#   BENCH_SCALE=a,b       only these rows of scale: first,exact,capped,mib,kept,buffers,http
#   BENCH_FIRST=fresh|kept  first calls on a fresh state dir, or on a restart (default both)
#   BENCH_RARE, BENCH_COMMON, BENCH_VERY_COMMON, BENCH_REGEX   search patterns
#   BENCH_FIND3, BENCH_FIND_BASENAME, BENCH_FIND_PATH           find queries
# Functions the binary does not serve yet are reported as n/a; rerun later.
# Results: printed, and written to .bench/results.md.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$repo"
bench="$repo/.bench"
bin="${BENCH_BIN:-$repo/bin/editord}"
mkdir -p "$bench"

log() { printf '[bench] %s\n' "$*" >&2; }

# 1. Tools: ripgrep, fzf and git, from Debian, when missing and we are root.
missing=()
for t in rg fzf git; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
if ((${#missing[@]})); then
	pkgs=()
	for t in "${missing[@]}"; do case $t in rg) pkgs+=(ripgrep) ;; *) pkgs+=("$t") ;; esac; done
	if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
		log "installing ${pkgs[*]} with apt-get"
		if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}"; } >&2; then
			log "note: could not install ${pkgs[*]}; the rows that need them will say n/a"
		fi
	else
		log "note: ${pkgs[*]} missing and not root (or no apt-get); the rows that need them will say n/a"
	fi
fi
command -v git >/dev/null 2>&1 || { log "git is required to assemble the corpus"; exit 1; }

[[ -x $bin ]] || { log "$bin missing: run 'make build' (or 'make bench')"; exit 1; }

# The filesystem MCP server (npm), the peer of the 1 MiB stdio rows (scale) and of the agent tasks.
fsmcp="$bench/npm/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
if [[ ! -f $fsmcp ]] && command -v npm >/dev/null 2>&1; then
	log "installing @modelcontextprotocol/server-filesystem with npm into $bench/npm"
	npm install --prefix "$bench/npm" --no-audit --no-fund @modelcontextprotocol/server-filesystem >&2 ||
		log "note: could not install it; the 1 MiB stdio rows will have no peer"
fi
[[ -f $fsmcp ]] && export BENCH_FSMCP="$fsmcp"

# The lsp group's workspace (kubernetes and the modules it needs) and the
# pinned gopls (make lsp), when it runs.
lspargs=()
if [[ ,${BENCH_ONLY:-lsp}, == *,lsp,* ]]; then
	lspdir=$("$repo/testdata/bench/lsp-corpus.sh" "$bench")
	make -s -C "$repo" lsp >&2
	lspargs=(-lsp-corpus "$lspdir" -gopls "$repo/testdata/lsp/bin/gopls")
	if [[ ${BENCH_ONLY:-} == lsp ]]; then
		log "running the driver (lsp only, on $lspdir)"
		exec go run ./testdata/bench/driver -corpus "$lspdir" -bin "$bin" -out "$bench/results.md" "${lspargs[@]}" "$@"
	fi
fi

# 2. The corpus, assembled once.
if [[ ${BENCH_SMALL:-} == 1 ]]; then
	corpus="$bench/corpus-small"
	mods=("golang.org/x/tools@v0.52.0=golang.org/x/tools")
	gosrc=()
	min_files=1000
else
	corpus="$bench/corpus"
	k8s_staging=(api apimachinery client-go apiserver apiextensions-apiserver kubectl kube-aggregator
		code-generator cli-runtime component-base kubelet cri-api controller-manager cloud-provider
		kube-scheduler kube-controller-manager kube-proxy metrics sample-apiserver component-helpers
		csi-translation-lib dynamic-resource-allocation endpointslice mount-utils pod-security-admission)
	mods=("k8s.io/kubernetes@v1.37.2=kubernetes")
	for m in "${k8s_staging[@]}"; do mods+=("k8s.io/$m@v0.37.2=kubernetes/staging/src/k8s.io/$m"); done
	mods+=(
		"golang.org/x/tools@v0.52.0=golang.org/x/tools"
		"golang.org/x/net@v0.62.0=golang.org/x/net"
		"golang.org/x/sys@v0.50.0=golang.org/x/sys"
		"github.com/docker/docker@v28.5.2+incompatible=docker"
		"github.com/prometheus/prometheus@v0.316.0=prometheus"
		"github.com/ethereum/go-ethereum@v1.17.10=go-ethereum"
		"istio.io/istio@v0.0.0-20260827124520-eed52ebb66ad=istio"
	)
	gosrc=(src test)
	min_files=50000
fi

corpus_stats() { # files (tracked) and MB of the work tree
	local files mb
	files=$(git -C "$corpus" ls-files | wc -l)
	mb=$(du -sm --exclude=.git "$corpus" | cut -f1)
	echo "$files $mb"
}

if [[ -f $corpus/.bench-corpus-done ]]; then
	log "reusing corpus $corpus (delete it to rebuild)"
else
	log "assembling corpus in $corpus (once)"
	rm -rf "$corpus"
	mkdir -p "$corpus" "$bench/modcache"
	specs=()
	for m in "${mods[@]}"; do specs+=("${m%%=*}"); done
	log "go mod download ${#specs[@]} modules into $bench/modcache"
	json="$bench/download.json"
	# Outside any module, into a private module cache; -modcacherw keeps it writable.
	(cd "$bench" && GOMODCACHE="$bench/modcache" GOFLAGS=-modcacherw GOTOOLCHAIN=local \
		go mod download -json "${specs[@]}") >"$json" || {
		log "go mod download failed:"; grep -E '"Error"' "$json" >&2 || true; exit 1
	}
	for m in "${mods[@]}"; do
		spec="${m%%=*}" dest="${m#*=}"
		path="${spec%@*}" version="${spec#*@}"
		# The module cache escapes upper-case letters as !lower.
		esc=$(printf '%s' "$path" | sed -E 's/([A-Z])/!\L\1/g')
		src="$bench/modcache/$esc@$version"
		[[ -d $src ]] || { log "module $spec not in the cache ($src)"; exit 1; }
		mkdir -p "$corpus/$dest"
		cp -R "$src/." "$corpus/$dest/"
	done
	for d in "${gosrc[@]}"; do
		if [[ -d /usr/local/go/$d ]]; then
			mkdir -p "$corpus/go"
			cp -R "/usr/local/go/$d" "$corpus/go/"
		fi
	done
	chmod -R u+w "$corpus"
	# A scratch folder the benchmarks write into, ignored by git, find and search.
	printf '/bench-scratch/\n' >"$corpus/.gitignore"
	# A ~3 MB text file for editor::git::hunks: real Go sources, concatenated.
	mkdir -p "$corpus/bench"
	# (head closes the pipe early: no pipefail for this one.)
	(
		set +o pipefail
		cd "$corpus" && find . -name '*.go' -not -path './bench/*' | LC_ALL=C sort | head -n 6000 |
			while IFS= read -r f; do cat "$f"; done | head -c 3145728 >bench/large_3mb.txt
	) || true
	log "git init + commit (this takes a while on the full corpus)"
	git -C "$corpus" -c init.defaultBranch=main init -q
	git -C "$corpus" -c core.safecrlf=false add -A
	git -C "$corpus" -c user.name=bench -c user.email=bench@localhost -c commit.gpgsign=false \
		commit -q -m "benchmark corpus"
	git -C "$corpus" status --porcelain >/dev/null # settle the index's stat data
	touch "$corpus/.bench-corpus-done"
	printf '/.bench-corpus-done\n' >>"$corpus/.git/info/exclude"
fi

read -r files mb < <(corpus_stats)
log "corpus: $files tracked files, $mb MB (work tree)"
if ((files < min_files)); then
	log "note: fewer than $min_files files; figures will not match the issue's target size"
fi

# 3. The driver.
log "running the driver"
exec go run ./testdata/bench/driver -corpus "$corpus" -bin "$bin" -out "$bench/results.md" "${lspargs[@]}" "$@"
