//go:build !race

package termtext

// sweepEvery is 1: the width sweep tries every character.
const sweepEvery = 1
