//go:build production

package assets

func trustedKeyFiles() []keyFile { return productionKeyFiles() }

// RequireApprovedProgram: a production build plays only when its own hash is
// in a signed approved-program list.
const RequireApprovedProgram = true
