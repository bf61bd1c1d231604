//go:build !linux

package main

import "os"

// mapFile reads a file (the mapping is Linux's, the cabinet's system).
func mapFile(path string) ([]byte, error) { return os.ReadFile(path) }
