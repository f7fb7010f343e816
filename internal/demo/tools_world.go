package demo

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/mail"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The world tools pretend to reach outside the server, so they declare
// openWorldHint true: their results come from (and their effects land in)
// places the user does not control. Both are simulated: the forecast is made
// up from the city name and the message goes to an in-memory outbox.

func (s *Server) addWorldTools() {
	addTool(s, &mcp.Tool{
		Name:        "weather_forecast",
		Title:       "Weather forecast",
		Description: "Returns a simulated, deterministic daily forecast for a city without using the network; open world because a real forecast comes from a third party, and titled in both places to show which title wins.",
		InputSchema: schema(`{"type":"object","required":["city"],"properties":{
			"city":{"type":"string","minLength":1,"description":"city name, e.g. Lisbon"},
			"days":{"type":"integer","minimum":1,"maximum":7,"default":3,"description":"how many days to forecast"},
			"units":{"type":"string","enum":["metric","imperial"],"default":"metric","description":"°C and km/h, or °F and mph"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Forecast (annotations)", ReadOnlyHint: true, OpenWorldHint: flag(true)},
		Meta: examples(
			map[string]any{"city": "Lisbon"},
			map[string]any{"city": "Chicago", "days": 5, "units": "imperial"},
		),
	}, s.weatherForecast)

	addTool(s, &mcp.Tool{
		Name:        "send_message",
		Title:       "Send a message",
		Description: "Records an email in the demo's outbox (simulated: nothing is sent); open world and not idempotent, because a real send cannot be taken back and a retry sends twice.",
		InputSchema: schema(`{"type":"object","required":["to","subject"],"properties":{
			"to":{"type":"string","format":"email","description":"recipient address"},
			"subject":{"type":"string","minLength":1},
			"body":{"type":"string"}}}`),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: flag(false), IdempotentHint: false, OpenWorldHint: flag(true)},
		Meta: examples(
			map[string]any{"to": "ana@example.com", "subject": "Lunch?", "body": "Noon at the usual place?"},
			map[string]any{"to": "team@example.org", "subject": "Release is out"},
		),
	}, s.sendMessage)
}

type weatherInput struct {
	City  string `json:"city"`
	Days  int    `json:"days"`
	Units string `json:"units"`
}

var conditions = []string{"sunny", "partly cloudy", "cloudy", "light rain", "showers", "windy", "thunderstorms", "fog"}

func (s *Server) weatherForecast(_ context.Context, _ *mcp.CallToolRequest, in weatherInput) (*mcp.CallToolResult, any, error) {
	city := strings.TrimSpace(in.City)
	if city == "" {
		return nil, nil, fmt.Errorf("city must not be blank")
	}
	days := in.Days
	if days < 1 || days > 7 {
		days = 3
	}
	imperial := in.Units == "imperial"
	var b strings.Builder
	fmt.Fprintf(&b, "Simulated %d-day forecast for %s (no network was used):", days, city)
	for d := range days {
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%d", fold(city), d)
		v := h.Sum32()
		tempC := int(v%30) - 2 // -2..27 °C
		windKmh := int((v>>8)%40) + 2
		cond := conditions[int((v>>16)%uint32(len(conditions)))]
		temp, wind := fmt.Sprintf("%d°C", tempC), fmt.Sprintf("%d km/h", windKmh)
		if imperial {
			temp, wind = fmt.Sprintf("%d°F", tempC*9/5+32), fmt.Sprintf("%d mph", windKmh*5/8)
		}
		fmt.Fprintf(&b, "\n%s: %s, %s, wind %s", dayLabel(d), cond, temp, wind)
	}
	return textResult("%s", b.String()), nil, nil
}

func dayLabel(d int) string {
	switch d {
	case 0:
		return "Today"
	case 1:
		return "Tomorrow"
	default:
		return fmt.Sprintf("Day %d", d+1)
	}
}

// message is one simulated email in the outbox.
type message struct {
	To, Subject, Body string
}

type sendInput struct {
	To      string `json:"to"`
	Subject string `json:"subject"`
	Body    string `json:"body"`
}

func (s *Server) sendMessage(_ context.Context, _ *mcp.CallToolRequest, in sendInput) (*mcp.CallToolResult, any, error) {
	// The SDK does not check "format": "email", so check it here.
	addr, err := mail.ParseAddress(in.To)
	if err != nil || addr.Address != strings.TrimSpace(in.To) {
		return nil, nil, fmt.Errorf("%q is not an email address", in.To)
	}
	s.mu.Lock()
	s.outbox = append(s.outbox, message{To: addr.Address, Subject: in.Subject, Body: in.Body})
	n := len(s.outbox)
	s.mu.Unlock()
	return textResult("Simulated, nothing was sent: message #%d to %s (%q) was recorded in the demo outbox.", n, addr.Address, in.Subject), nil, nil
}
