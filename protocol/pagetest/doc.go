// Package pagetest drives the person's editor page (protocol/web) in a real
// browser, Debian's chromium through chromedp, beside a real MCP agent on
// the same workspace. It has no code outside its tests.
package pagetest
