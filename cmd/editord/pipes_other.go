//go:build !linux

package main

// growPipes: pipes keep their size where they cannot be grown.
func growPipes(streams ...any) {}
