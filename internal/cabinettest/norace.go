//go:build !race

package cabinettest

// Race: see race.go.
const Race = false
