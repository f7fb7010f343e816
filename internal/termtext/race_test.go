//go:build race

package termtext

// sweepEvery samples the characters the width sweep tries: the race
// detector makes each one many times dearer, and the sweep shares no memory
// it could find a race in.
const sweepEvery = 13
