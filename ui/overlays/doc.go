// Package overlays holds the panes shown over the screen, each a sub-model that the
// root model (ui) holds and routes messages to: the session log (key L), the
// server's output (S), the audit of the whole server (A) and the traffic on
// the wire (T). It holds what they share with the rest of the view too: how
// an outcome and a duration read on screen. They draw text with ui/layout.
package overlays
