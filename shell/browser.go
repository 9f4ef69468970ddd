package shell

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser asks the desktop to open target (a URL or a file) in the
// person's browser and does not wait for it: the browser outlives the
// request. $BROWSER, when set, names the program (the first of its
// colon-separated list), as xdg-open's own convention has it; else
// xdg-open, or open on macOS.
func OpenBrowser(target string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	if b, _, _ := strings.Cut(os.Getenv("BROWSER"), ":"); b != "" {
		name = b
	}
	cmd := exec.Command(name, target)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
