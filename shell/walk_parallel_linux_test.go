//go:build linux

package shell

func ftNoOpenat2Store(v bool) { ftNoOpenat2.Store(v) }
