package demo

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// chartURI names the workspace in render_chart's resource link. The demo
// serves no resources; the link is there so clients can show how they render
// one.
const chartURI = "demo://notes/tags"

// addRenderChart registers render_chart, whose result mixes the three
// content types a client must render: text, an image and a resource link.
func (s *Server) addRenderChart() {
	addTool(s, &mcp.Tool{
		Name:        "render_chart",
		Title:       "Render a chart",
		Description: "Draws a tiny bar chart of notes per tag and returns it as text, a PNG image and a resource link; read-only.",
		InputSchema: schema(emptyInput),
		Annotations: readOnly(""),
	}, s.renderChart)
}

func (s *Server) renderChart(_ context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
	_, _, perTag := s.notes.counts()
	tags := slices.Sorted(maps.Keys(perTag))
	counts := make([]int, len(tags))
	parts := make([]string, len(tags))
	for i, t := range tags {
		counts[i] = perTag[t]
		parts[i] = fmt.Sprintf("%s %d", t, perTag[t])
	}
	summary := "No tagged notes."
	if len(tags) > 0 {
		summary = "Notes per tag: " + strings.Join(parts, ", ")
	}
	img, err := barChart(counts)
	if err != nil {
		return nil, nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		&mcp.TextContent{Text: summary + " (chart below, bars in tag order)."},
		&mcp.ImageContent{Data: img, MIMEType: "image/png"},
		&mcp.ResourceLink{
			URI:         chartURI,
			Name:        "notes-by-tag",
			Title:       "Notes by tag",
			Description: "The data behind the chart (a link only: the demo serves no resources).",
			MIMEType:    "text/plain",
		},
	}}, nil, nil
}

// barChart draws up to eight bars, one per value, into a 16x16 PNG: small
// enough to inline anywhere, big enough to see.
func barChart(values []int) ([]byte, error) {
	const size = 16
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.Set(x, y, color.White)
		}
	}
	values = values[:min(len(values), size/2)]
	top := 1
	for _, v := range values {
		top = max(top, v)
	}
	bar := color.RGBA{R: 0x2f, G: 0x6f, B: 0xd6, A: 0xff}
	for i, v := range values {
		h := max(1, v*size/top)
		for y := size - h; y < size; y++ {
			img.Set(2*i, y, bar)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encoding chart: %w", err)
	}
	return buf.Bytes(), nil
}
