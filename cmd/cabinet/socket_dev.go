//go:build !production

package main

// simulatorSocket: a development build's control socket stands in for the
// hardware (bills, keys, doors, PINs) on simulated devices.
const simulatorSocket = true
