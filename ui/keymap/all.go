package keymap

import "charm.land/bubbles/v2/key"

// Named is a binding of the keymap with the name of its field.
type Named struct {
	Name string
	key.Binding
}

// All is every binding of the keymap with its name, in the order they are
// declared: what tests sweep (each key pressed in every state, each binding
// in some section of help) without reflecting over the struct.
// TestAllListsEveryField keeps it whole.
func (k *KeyMap) All() []Named {
	return []Named{
		{"Quit", k.Quit},
		{"ForceQuit", k.ForceQuit},
		{"Help", k.Help},
		{"Log", k.Log},
		{"Server", k.Server},
		{"Audit", k.Audit},
		{"Up", k.Up},
		{"Down", k.Down},
		{"PageUp", k.PageUp},
		{"PageDown", k.PageDown},
		{"Top", k.Top},
		{"Bottom", k.Bottom},
		{"Filter", k.Filter},
		{"ClearFilter", k.ClearFilter},
		{"Call", k.Call},
		{"Example", k.Example},
		{"DetailUp", k.DetailUp},
		{"DetailDown", k.DetailDown},
		{"AcceptFilter", k.AcceptFilter},
		{"CancelFilter", k.CancelFilter},
		{"RecallFilter", k.RecallFilter},
		{"NextField", k.NextField},
		{"PrevField", k.PrevField},
		{"Cycle", k.Cycle},
		{"Run", k.Run},
		{"Back", k.Back},
		{"ToggleJSON", k.ToggleJSON},
		{"Examples", k.Examples},
		{"ExampleN", k.ExampleN},
		{"Newline", k.Newline},
		{"PickExample", k.PickExample},
		{"Yes", k.Yes},
		{"No", k.No},
		{"AllowSession", k.AllowSession},
		{"CancelCall", k.CancelCall},
		{"ScrollUp", k.ScrollUp},
		{"ScrollDown", k.ScrollDown},
		{"Edit", k.Edit},
		{"Close", k.Close},
		{"Choose", k.Choose},
		{"Retry", k.Retry},
		{"Login", k.Login},
		{"ViewTools", k.ViewTools},
		{"ViewResources", k.ViewResources},
		{"ViewPrompts", k.ViewPrompts},
		{"NextView", k.NextView},
		{"Save", k.Save},
		{"Subscribe", k.Subscribe},
		{"SaveHere", k.SaveHere},
		{"Overwrite", k.Overwrite},
		{"KeepFile", k.KeepFile},
		{"NextArg", k.NextArg},
		{"PrevArg", k.PrevArg},
		{"SuggestDown", k.SuggestDown},
		{"SuggestUp", k.SuggestUp},
		{"PickSuggestion", k.PickSuggestion},
		{"Accept", k.Accept},
		{"Decline", k.Decline},
		{"Dismiss", k.Dismiss},
		{"OpenURL", k.OpenURL},
		{"AskLater", k.AskLater},
		{"DeclineAll", k.DeclineAll},
		{"MuteAsks", k.MuteAsks},
		{"Mute", k.Mute},
		{"NextServer", k.NextServer},
		{"PrevServer", k.PrevServer},
		{"PickServer", k.PickServer},
		{"Reconnect", k.Reconnect},
		{"Traffic", k.Traffic},
		{"OpenEntry", k.OpenEntry},
		{"Copy", k.Copy},
		{"FilterStatus", k.FilterStatus},
		{"OpenWorldOnly", k.OpenWorldOnly},
		{"RawJSON", k.RawJSON},
		{"Unallow", k.Unallow},
	}
}
