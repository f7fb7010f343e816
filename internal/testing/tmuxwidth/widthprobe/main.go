//go:build ignore

// widthprobe asks the terminal it runs in how wide it draws every assigned
// character: it prints "a" and the character at the start of a line, asks
// for the cursor's position (DSR) and writes one line per character, its
// code point and width in hex and decimal, to the file it is given.
//
//	tmux new -d -x 120 -y 10 'go run widthprobe/main.go /tmp/widths.txt'
//
// Fold the output into ranges for ../widths.txt; a character the
// terminal's wcwidth does not know shows as width 0 in tmux, and is "-"
// there (python3's ctypes can ask glibc's wcwidth which those are).
package main

import (
	"bufio"
	"fmt"
	"os"
	"unicode"

	"golang.org/x/term"
)

func assigned(r rune) bool {
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cf, unicode.Co)
}

func main() {
	out, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	defer out.Close()
	w := bufio.NewWriter(out)
	defer w.Flush()
	old, err := term.MakeRaw(0)
	if err != nil {
		panic(err)
	}
	defer term.Restore(0, old)
	in := bufio.NewReader(os.Stdin)
	for r := rune(0xa0); r <= 0x10ffff; r++ {
		if r >= 0xd800 && r <= 0xdfff || !assigned(r) {
			continue
		}
		if (r > 0xe000 && r < 0xf900) || r > 0xf0000 { // private use: one of each plane's
			continue
		}
		fmt.Fprintf(os.Stdout, "\r\x1b[Ka%c\x1b[6n", r)
		reply, err := in.ReadString('R')
		if err != nil {
			panic(err)
		}
		var row, col int
		if _, err := fmt.Sscanf(reply, "\x1b[%d;%dR", &row, &col); err != nil {
			panic(fmt.Sprintf("%q: %v", reply, err))
		}
		fmt.Fprintf(w, "%x %d\n", r, col-2)
	}
}
