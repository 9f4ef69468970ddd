package main

import (
	"fmt"

	"example.com/sample/src/util"
)

func main() {
	fmt.Println(util.Greeting("world"))
}
