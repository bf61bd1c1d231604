//go:build !amd64 || purego

package rng

var fastImpls []fastImpl
