package console

// linkKind is how a proxy and its consoles reach each other. A proxy
// serves its system's (systemLink, in link_*.go) and says which in its
// entry; a console follows what each entry says.
type linkKind int

const (
	// linkNone: the system has no link (a proxy runs without one).
	linkNone linkKind = iota
	// linkSocket: a Unix domain socket in the folder, whose other end the
	// kernel names (Info.Socket).
	linkSocket
	// linkToken: loopback TCP, and the proxy's token in the console's hello
	// (Info.Addr; link_token.go).
	linkToken
)
