//go:build production

package assets

const DevelopmentKeyTrusted = false

func trustedKeyFiles() []keyFile { return productionKeyFiles() }
