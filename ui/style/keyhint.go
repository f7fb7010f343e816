package style

// KeyHint is a key and what it does, as the footer and the dialogs' answers
// show them.
func (s *Styles) KeyHint(key, desc string) string {
	return s.Key.Render(key) + " " + s.KeyDesc.Render(desc)
}
