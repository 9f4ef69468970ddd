package shell

import (
	"os/exec"
	"runtime"
)

// OpenBrowser asks the desktop to open url in the person's browser
// (xdg-open, or open on macOS) and does not wait for it: the browser
// outlives the request.
func OpenBrowser(url string) error {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	cmd := exec.Command(name, url)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
