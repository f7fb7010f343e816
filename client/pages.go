package client

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsh/mcpsh/internal/termtext"
)

// paginate reads every page of one listing (list: "tools", "resources", …),
// following nextCursor until the server gives none, or one it gave before
// (go-sdk does not guard against that), within the listing's budget
// (listbudget.go). fetch returns the raw result for a cursor; field names
// the array that holds its items; each reads one item, given its page and
// place (from 1). A page that would pass the budget is not read: the error
// is then a *ListLimitError, and the items before it are the caller's to
// keep or drop (partial says which, for the message).
func (s *Session) paginate(list, field string, partial bool, fetch func(cursor string) (json.RawMessage, error),
	each func(page, n int, item json.RawMessage)) (warnings []string, err error) {
	b := &listBudget{lim: s.listLimits()}
	seen := map[string]bool{}
	cursor := ""
	for {
		if limit, ok := b.another(); !ok {
			return warnings, s.spent(list, limit, b, partial)
		}
		raw, err := fetch(cursor)
		if err != nil {
			return warnings, err
		}
		if limit, ok := b.page(len(raw)); !ok {
			return warnings, s.spent(list, limit, b, partial)
		}
		items, next, err := parseListPage(raw, field)
		badCursor := errors.Is(err, errCursorNotString)
		if err != nil && !badCursor {
			return warnings, fmt.Errorf("the server's answer is not a list of %s: %s", list, termtext.Line(err.Error()))
		}
		if limit, ok := b.take(len(items)); !ok {
			return warnings, s.spent(list, limit, b, partial)
		}
		for i, it := range items {
			each(b.pages, i+1, it)
		}
		switch {
		case badCursor:
			return append(warnings, fmt.Sprintf("nextCursor is not a string: listing %s stopped after %d pages", list, b.pages)), nil
		case next == nil || *next == "":
			return warnings, nil
		}
		seen[cursor] = true
		if seen[*next] {
			return append(warnings, fmt.Sprintf("the server repeated cursor %q: listing %s stopped after %d pages",
				termtext.Truncate(termtext.Line(*next), 60), list, b.pages)), nil
		}
		cursor = *next
	}
}

// errCursorNotString: a nextCursor that is neither a string nor null.
var errCursorNotString = errors.New("nextCursor is not a string")

// parseListPage reads one page of a listing: the items in the array field
// ("tools", "resources", "resourceTemplates" or "prompts"), each as sent, and
// the next cursor (nil when there is none). A page that is not an object,
// or whose field is not an array, is an error; so is a cursor that is not a
// string, since no next page can be asked for with it (the items still
// come with errCursorNotString).
//
// Each item is valid JSON (parseValidTool relies on it). The plain case is
// read in one pass (listPageFast, listfast.go), anything else by
// parseListPageSlow.
func parseListPage(raw json.RawMessage, field string) (items []json.RawMessage, next *string, err error) {
	if items, next, ok := listPageFast(raw, field); ok {
		return items, next, nil
	}
	return parseListPageSlow(raw, field)
}

// parseListPageSlow is parseListPage by encoding/json, which names what is
// wrong.
func parseListPageSlow(raw json.RawMessage, field string) (items []json.RawMessage, next *string, err error) {
	// One struct for every listing: the page is read in one pass, where a
	// map of its members would have each read again.
	var page *struct {
		Tools             json.RawMessage `json:"tools"`
		Resources         json.RawMessage `json:"resources"`
		ResourceTemplates json.RawMessage `json:"resourceTemplates"`
		Prompts           json.RawMessage `json:"prompts"`
		NextCursor        json.RawMessage `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &page); err != nil {
		return nil, nil, err
	}
	if page == nil {
		return nil, nil, errors.New("the result is null")
	}
	var arr json.RawMessage
	switch field {
	case "tools":
		arr = page.Tools
	case "resources":
		arr = page.Resources
	case "resourceTemplates":
		arr = page.ResourceTemplates
	case "prompts":
		arr = page.Prompts
	default:
		return nil, nil, fmt.Errorf("no listing has items under %q", field)
	}
	if !isNull(arr) {
		if err := json.Unmarshal(arr, &items); err != nil {
			return nil, nil, fmt.Errorf("%s is %s, not an array", field, rawKind(arr))
		}
	}
	if c := page.NextCursor; !isNull(c) {
		var s string
		if json.Unmarshal(c, &s) != nil {
			return items, nil, errCursorNotString
		}
		next = &s
	}
	return items, next, nil
}

// listLimits is the budget of each listing of this session.
func (s *Session) listLimits() listLimits {
	if s.limits != nil {
		return *s.limits
	}
	return defaultListLimits
}
