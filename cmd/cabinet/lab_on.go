//go:build lab

package main

// labBuild: a lab build (go build -tags lab), for the certification lab
// only: in test mode it may choose the next test game's outcome
// (machine.Config.Lab). lab_production.go keeps it out of production.
const labBuild = true
