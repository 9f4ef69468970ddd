//go:build !linux

package shell

func ftNoOpenat2Store(bool) {}
