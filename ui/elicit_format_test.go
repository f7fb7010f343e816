package ui

import (
	"strings"
	"testing"
)

// The form dialog checks an answer with the request's own check, formats
// included: an email that is not one is not sent, and the dialog says why.
func TestElicitationFormHoldsTheEmailToItsFormat(t *testing.T) {
	m, _ := connected(t, true, 80, 24)
	a := formAsk()
	m.Update(askMsg{ask: a})
	m.shown().asking().(*elicitDialog).form.FocusField(0)
	send(m, strings.Split("bad-email", "")...)
	send(m, "ctrl+s")
	if r, ok := answer(t, a); ok {
		t.Fatalf("answered %+v with an email that is not one", r.elicit)
	}
	mustShow(t, m, `"bad-email" is not an email address`)
}
