package main

// greeting says hello to name.
func greeting(name string) string {
	return "hello, " + name
}
