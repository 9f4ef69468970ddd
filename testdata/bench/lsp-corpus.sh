#!/usr/bin/env bash
# Assembles the code intelligence benchmark's workspace once (run.sh calls
# it for the lsp group): kubernetes at the corpus's version with its
# staging modules in place (as its repository lays them out, so its go.mod
# replaces resolve), and every module it needs downloaded into the bench's
# private module cache, so gopls loads it with GOPROXY=off as editord runs
# it. kubernetes/autoscaler, which the issue names, is not served by the Go
# module proxy this machine reaches; kubernetes is the largest real Go
# module that is.
#   lsp-corpus.sh BENCH_DIR   prints the workspace's path
set -euo pipefail
bench="$1"
dest="$bench/lsp/kubernetes"
log() { printf '[bench] %s\n' "$*" >&2; }
if [[ -f $dest/.bench-lsp-done ]]; then
	echo "$dest"
	exit 0
fi
version=v1.37.2 staging_version=v0.37.2
mkdir -p "$bench/modcache" "$bench/lsp"
dl() { # go mod download into the bench's module cache
	(cd "$bench" && GOMODCACHE="$bench/modcache" GOFLAGS=-modcacherw GOTOOLCHAIN=local go mod download -json "$@") >>"$bench/lsp/download.json"
}
log "lsp: go mod download k8s.io/kubernetes@$version"
dl "k8s.io/kubernetes@$version"
top="$bench/modcache/k8s.io/kubernetes@$version"
# The staging modules its go.mod replaces with ./staging/src/k8s.io/NAME.
staging=($(sed -n 's#^.*=> \./staging/src/k8s.io/\([a-z0-9-]*\).*#\1#p' "$top/go.mod" | sort -u))
specs=()
for m in "${staging[@]}"; do specs+=("k8s.io/$m@$staging_version"); done
log "lsp: go mod download ${#specs[@]} staging modules"
dl "${specs[@]}" || log "lsp: some staging modules were not downloaded (see .bench/lsp/download.json)"
rm -rf "$dest"
mkdir -p "$dest"
cp -R "$top/." "$dest/"
for m in "${staging[@]}"; do
	src="$bench/modcache/k8s.io/$m@$staging_version"
	mkdir -p "$dest/staging/src/k8s.io/$m"
	if [[ ! -d $src ]]; then
		# The proxy does not serve every staging module (the samples): no
		# package of kubernetes imports them, a go.mod naming the module
		# is all its module graph needs.
		log "lsp: k8s.io/$m@$staging_version is not served; a go.mod stands in for it"
		printf 'module k8s.io/%s\n\ngo 1.24\n' "$m" >"$dest/staging/src/k8s.io/$m/go.mod"
		continue
	fi
	cp -R "$src/." "$dest/staging/src/k8s.io/$m/"
done
chmod -R u+w "$dest"
log "lsp: go mod download kubernetes's dependencies"
(cd "$dest" && GOMODCACHE="$bench/modcache" GOFLAGS="-modcacherw -mod=mod" GOTOOLCHAIN=local go mod download) >&2
git -C "$dest" -c init.defaultBranch=main init -q
git -C "$dest" add -A
git -C "$dest" -c user.name=bench -c user.email=bench@localhost -c commit.gpgsign=false commit -q -m "lsp benchmark workspace"
touch "$dest/.bench-lsp-done"
printf '/.bench-lsp-done\n' >>"$dest/.git/info/exclude"
echo "$dest"
