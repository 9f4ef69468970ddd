package sandbox

import "testing"

func TestSanitizeGitConfig(t *testing.T) {
	in := `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
	fsmonitor = /tmp/evil.sh
	hooksPath = /tmp/hooks
[extensions]
	objectFormat = sha256
[remote "origin"]
	url = https://x-access-token:ghp_SECRET@github.com/o/r.git
	fetch = +refs/heads/*:refs/remotes/origin/*
	pushurl = "https://user:pass@example.com/r.git?private_token=SECRET2#frag"
[remote "ssh"]
	url = git@github.com:o/r.git
[branch "main"]
	remote = origin
	merge = refs/heads/main
[http "https://github.com/"]
	extraheader = AUTHORIZATION: basic SECRET3
[include]
	path = ~/.gitconfig-secret
[credential]
	helper = store
[user]
	token = SECRET4 \
	SECRET5
[core] editor = vim
# a comment with SECRET6
[submodule "lib"]
	url = https://tok:SECRET7@host/lib.git
	update = !sh -c evil
`
	want := `[core]
	repositoryformatversion = 0
	filemode = true
	bare = false
[extensions]
	objectformat = sha256
[remote "origin"]
	url = https://github.com/o/r.git
	fetch = +refs/heads/*:refs/remotes/origin/*
	pushurl = https://example.com/r.git
[remote "ssh"]
	url = git@github.com:o/r.git
[branch "main"]
	remote = origin
	merge = refs/heads/main
[core]
[submodule "lib"]
	url = https://host/lib.git
`
	if got := string(SanitizeGitConfig([]byte(in))); got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}
