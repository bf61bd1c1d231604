//go:build !lab

package main

// labBuild: not a lab build; test mode plays outcomes the RNG draws only.
const labBuild = false
