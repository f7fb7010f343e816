package termtext

// drop returns how many bytes of s, from the ESC or C1 control at s[i], leave
// the text: a whole sequence when it is complete, only its introducer when it
// is not. Terminals swallow everything after an open string introducer (DCS,
// SOS, OSC, PM, APC) up to a terminator that may never come; keeping the text
// after it visible is safe because what follows is sanitized in turn.
//
// C1 controls count in their UTF-8 form (U+0080–U+009F), which terminals such
// as xterm act on; a raw byte 0x80–0x9F is invalid UTF-8 and becomes U+FFFD.
func drop(s string, i int) int {
	if s[i] != 0x1b {
		switch s[i+1] { // s[i:i+2] is a C1 control in UTF-8: C2 80 to C2 9F
		case 0x9b: // CSI
			return 2 + controlSequence(s, i+2)
		case 0x9d: // OSC
			return 2 + controlString(s, i+2, true)
		case 0x90, 0x98, 0x9e, 0x9f: // DCS, SOS, PM, APC
			return 2 + controlString(s, i+2, false)
		}
		return 2
	}
	if i+1 == len(s) {
		return 1
	}
	switch s[i+1] {
	case '[':
		return 2 + controlSequence(s, i+2)
	case ']':
		return 2 + controlString(s, i+2, true)
	case 'P', 'X', '^', '_':
		return 2 + controlString(s, i+2, false)
	}
	// Any other escape sequence: intermediates 0x20–0x2F, then a final byte.
	j := i + 1
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return j + 1 - i
	}
	return 1
}

// controlSequence returns the length of the rest of a CSI sequence starting at
// s[j] (parameter bytes, intermediate bytes, a final byte), or 0 when it has no
// final byte.
func controlSequence(s string, j int) int {
	k := j
	for k < len(s) && s[k] >= 0x30 && s[k] <= 0x3f {
		k++
	}
	for k < len(s) && s[k] >= 0x20 && s[k] <= 0x2f {
		k++
	}
	if k < len(s) && s[k] >= 0x40 && s[k] <= 0x7e {
		return k + 1 - j
	}
	return 0
}

// controlString returns the length of the rest of a control string starting
// at s[j], up to and including its terminator: ST (ESC \ or U+009C), or BEL
// for OSC. It returns 0 when the string is never terminated, or is cut short
// the way terminals cut it: by another escape, another C1 control, CAN or SUB.
func controlString(s string, j int, osc bool) int {
	for k := j; k < len(s); k++ {
		switch s[k] {
		case 0x07:
			if osc {
				return k + 1 - j
			}
		case 0x1b:
			if k+1 < len(s) && s[k+1] == '\\' {
				return k + 2 - j
			}
			return 0
		case 0x18, 0x1a:
			return 0
		case 0xc2:
			if k+1 < len(s) && s[k+1] >= 0x80 && s[k+1] <= 0x9f {
				if s[k+1] == 0x9c {
					return k + 2 - j
				}
				return 0
			}
		}
	}
	return 0
}
