//go:build production

package main

// simulatorSocket: a production build's control socket offers no command
// that stands in for hardware.
const simulatorSocket = false
