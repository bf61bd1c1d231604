//go:build race

package cabinettest

// Race: the tests run under the race detector, so the binaries they start
// are built with it too (a race in the cabinet is a test failure).
const Race = true
