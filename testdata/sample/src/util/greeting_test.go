package util

import "testing"

func TestGreeting(t *testing.T) {
	if got := Greeting("world"); got != "hello, world" {
		t.Fatalf("Greeting(world) = %q", got)
	}
}
