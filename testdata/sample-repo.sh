#!/usr/bin/env bash
# Lays out DEST as a copy of testdata/sample that is a git repository of its
# own with a little history (three commits and one uncommitted change), so
# that `make run` shows the Git panel, the gutter and Activity diffs with
# something in them. A copy inside this checkout would otherwise belong to
# editord's own repository, which the jail cannot see.
set -euo pipefail
dest=${1:?usage: sample-repo.sh DEST}
src="$(cd "$(dirname "$0")" && pwd)/sample"
[ -e "$dest" ] && { echo "sample-repo.sh: $dest exists; remove it to start over" >&2; exit 1; }
mkdir -p "$dest"
g() { git -C "$dest" -c user.name="editord sample" -c user.email=sample@editord.invalid -c commit.gpgsign=false "$@"; }
commit() { GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" g commit -q -m "$2"; }

g init -q -b main
cp "$src/README.md" "$src/.gitignore" "$src/go.mod" "$dest/"
g add -A && commit "2026-01-05T10:00:00Z" "Start the sample: a README"

mkdir -p "$dest/src/util"
cp "$src/src/main.go" "$dest/src/"
sed 's/"hello, " + name/"hi, " + name/' "$src/src/util/greeting.go" >"$dest/src/util/greeting.go"
g add -A && commit "2026-01-06T11:30:00Z" "Add a greeting program"

cp "$src/src/util/greeting.go" "$src/src/util/greeting_test.go" "$dest/src/util/"
cp -r "$src/docs" "$dest/"
g add -A && commit "2026-01-07T09:15:00Z" "Say hello, not hi; add notes for Windows"

# One change left in the worktree, for the gutter and the Git panel.
printf '\nTry the Git panel: this line is not committed yet.\n' >>"$dest/README.md"
