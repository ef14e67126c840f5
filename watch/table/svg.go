package table

import (
	"fmt"
	"html"
	"strings"
)

// svg builds an SVG document. Every text it writes is escaped: bot names are chosen
// by their authors.
type svg struct {
	b strings.Builder
}

func newSVG(w, h int, title string) *svg {
	s := &svg{}
	fmt.Fprintf(&s.b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" font-family="sans-serif" font-size="13">`, w, h, w, h)
	fmt.Fprintf(&s.b, `<title>%s</title><rect width="%d" height="%d" fill="#f3efe4"/>`, esc(title), w, h)
	return s
}

func esc(s string) string { return html.EscapeString(s) }

// attrs renders data attributes from name, value pairs.
func attrs(kv ...string) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, ` %s="%s"`, kv[i], esc(kv[i+1]))
	}
	return b.String()
}

func (s *svg) open(class string, kv ...string) {
	fmt.Fprintf(&s.b, `<g class="%s"%s>`, class, attrs(kv...))
}

func (s *svg) close() { s.b.WriteString("</g>") }

func (s *svg) rect(x, y, w, h int, fill, stroke string) {
	fmt.Fprintf(&s.b, `<rect x="%d" y="%d" width="%d" height="%d" rx="4" fill="%s" stroke="%s"/>`, x, y, w, h, fill, stroke)
}

func (s *svg) circle(x, y, r int, fill, stroke string) {
	fmt.Fprintf(&s.b, `<circle cx="%d" cy="%d" r="%d" fill="%s" stroke="%s"/>`, x, y, r, fill, stroke)
}

func (s *svg) line(x1, y1, x2, y2 int, stroke string, dashed bool) {
	dash := ""
	if dashed {
		dash = ` stroke-dasharray="6 4"`
	}
	fmt.Fprintf(&s.b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"%s/>`, x1, y1, x2, y2, stroke, dash)
}

// text writes a line of text; anchor is start, middle or end.
func (s *svg) text(x, y int, anchor, fill string, size int, format string, args ...any) {
	fmt.Fprintf(&s.b, `<text x="%d" y="%d" text-anchor="%s" fill="%s" font-size="%d">%s</text>`, x, y, anchor, fill, size, esc(fmt.Sprintf(format, args...)))
}

// card draws a card face: a rounded rectangle of fill with its name in two lines at
// most, broken at its first space or after its slash.
func (s *svg) card(x, y, w, h int, fill, ink, name string, kv ...string) {
	s.open("card", append([]string{"data-card", name}, kv...)...)
	s.rect(x, y, w, h, fill, "#3f3f46")
	words := strings.SplitN(name, " ", 2)
	if before, after, ok := strings.Cut(name, "/"); ok && len(words) == 1 {
		words = []string{before + "/", after}
	}
	for i, word := range words {
		s.text(x+w/2, y+h/2-6*(len(words)-1)+i*13+4, "middle", ink, 11, "%s", word)
	}
	s.close()
}

func (s *svg) String() string { return s.b.String() + "</svg>" }
