package util

// Greeting says hello to name.
func Greeting(name string) string {
	return "hello, " + name
}
