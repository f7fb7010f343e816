package cli

import "testing"

func TestHeapFloorYieldsToTheUsersTuning(t *testing.T) {
	t.Parallel()
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	if f := newHeapFloor(env(nil)); len(f) != heapFloorBytes {
		t.Errorf("no GOGC or GOMEMLIMIT: floor of %d bytes, want %d", len(f), heapFloorBytes)
	}
	for _, k := range []string{"GOGC", "GOMEMLIMIT"} {
		if f := newHeapFloor(env(map[string]string{k: "200"})); f != nil {
			t.Errorf("%s set: a floor of %d bytes, want none", k, len(f))
		}
	}
	if f := newHeapFloor(env(map[string]string{"GOGC": ""})); len(f) != heapFloorBytes {
		t.Errorf("GOGC empty (the runtime's default): floor of %d bytes, want %d", len(f), heapFloorBytes)
	}
}
