//go:build lab && production

package main

// A lab build chooses game outcomes: it is never a production build. This
// name is defined nowhere, so the compiler refuses the combination of tags.
var _ = labBuildIsNeverAProductionBuild
