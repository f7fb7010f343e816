// Package console is the link between running `mcpsh proxy` processes and
// the consoles that watch them (`mcpsh watch`): where a proxy registers
// itself, the local socket it serves, what goes over it, the proxy's side
// (Hub: it hears the proxy's calls and asks the consoles about those that
// need a person) and the console's (Watcher).
//
// # Registration
//
// Each proxy registers in one folder, Dir: $XDG_RUNTIME_DIR/mcpsh/proxies,
// else mcpsh's state folder's proxies. The folder is the user's alone
// (0700, owned by the user; a folder of someone else's is refused). A proxy
// listens first, on ID.sock (0600), then writes ID.json (0600, written to a
// temporary name and renamed, so a reader never sees half of it): an Info,
// which it writes again once its host introduced itself. It removes both
// when it ends. A proxy killed without a chance to (kill -9) leaves them:
// List drops an entry whose process is gone, and a Watcher one whose socket
// refuses (the process id was reused).
//
// On Windows the folder is %LOCALAPPDATA%\mcpsh\proxies (the state
// folder's), inside the user's profile: file modes keep no one out there,
// and what is relied on is the profile's ACL (the user, SYSTEM and
// Administrators), which the folder and its files inherit. The entry holds
// the loopback address (Info.Addr, no Socket) and the token.
//
// # The link
//
// On Unix, a Unix domain socket. Each side checks that the other runs as
// the same user (SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS and
// FreeBSD), and drops the connection at once otherwise; on other Unix
// systems the check cannot be made and every connection is refused.
//
// On Windows, where the kernel does not name the other end, the token
// link (link_token.go): the proxy listens on 127.0.0.1 at a port the system
// picks, held with SO_EXCLUSIVEADDRUSE so that no other socket can bind it
// and take its consoles' connections, and writes the address and a token of
// 32 random bytes (64 hex digits) in its entry, which only this user can
// read. A console presents the token in its hello. The proxy takes a connection's first line, within
// 5 seconds, and unless it is a hello with the token (compared in constant
// time) hangs up without a word and without reading further: who has not
// the token cannot post calls, answer, or learn anything, not even the
// version. The token stays in the entry and the console's hello: no Info,
// event, message of the proxy's or warning carries it. A Watcher follows
// each entry by the link it names, and drops one whose port refuses. On
// systems that are neither, there is no link: a proxy runs without it, and
// mcpsh watch says so.
//
// Messages are JSON objects, one a line (at most MaxLine bytes), each with
// a "type". Version is the protocol's version; a side that reads a hello
// of another version says so in an "error" and hangs up.
//
// The console speaks first; the proxy answers its hello with its own, and
// from then on counts the console as attached: a call that needs a person
// is asked there first. Nothing else is sent to a console before.
//
// Proxy to console:
//
//	{"type":"hello","version":1,"proxy":INFO}       the answer to the console's hello
//	{"type":"proxy","proxy":INFO}                   the host introduced itself
//	{"type":"call","call":CALL}                     a call started, was decided, ended
//	{"type":"question","question":QUESTION}         a call waits for a person
//	{"type":"closed","closed":CLOSED}               a question is no longer open
//	{"type":"dropped","dropped":N}                  N call events were dropped
//	{"type":"error","error":"..."}                  then the proxy hangs up
//
// Console to proxy:
//
//	{"type":"hello","version":1}                    first (Unix socket)
//	{"type":"hello","version":1,"token":"…"}        first (token link: the entry's token)
//	{"type":"answer","answer":{"question":"q1","choice":"run"}}
//
// A choice is "run" (this one call), "refuse" (the agent gets a tool
// error, nothing is sent), or "allow" (this call, and later calls of the
// same tool in the same host session while its hints stay as shown).
//
// CALL is a CallEvent: "event" is "started" (tool, title, class, facets,
// openWorld, host, args as the session log keeps them, and policy's
// decision before anyone is asked), "decided" (the final decision, who
// approved it, the reason, the rule, the basis of each hint) or "ended"
// (status, durationMs, attempts, error). All three carry the call's "id",
// a number from 1 in each proxy. QUESTION is a Question: everything the
// confirmation shows, the call's id, and when the proxy stops waiting.
// CLOSED says how a question closed: "answered" (the choice, and "yours"
// for the console whose answer won: the first answer wins) or "withdrawn"
// (the call ended first: the approval timeout, the host's cancellation).
//
// # Never slowing the proxy
//
// The proxy never waits for a console. Each console has a queue: call
// events beyond QueueLimit waiting are dropped and counted, and the count
// is sent once the console has caught up (the queue emptied). Hellos,
// questions and closings are never dropped: there are only as many as the
// host's calls waiting for a person. A console that takes no line for
// WriteTimeout is hung up on, and counts as gone.
//
// # Questions
//
// A proxy asks its consoles first (proxy.Options.Console). With no console
// attached (connected and said hello), Ask returns at once and the host's
// user is asked, or the call is refused. With several, every one is asked
// and the first answer wins; the others are told. A console attached while
// a question is open is asked too. When the last console goes away with a
// question open, the question falls to the host's user (or a refusal),
// never a wait.
package console
