#!/usr/bin/env node
// mcpsh-ts-server: mcpsh's end-to-end test server, written with the official
// TypeScript SDK. It exercises every client-facing MCP feature, deterministically.
//
//   mcpsh-ts-server                  stdio (the default)
//   mcpsh-ts-server --http [--port N] streamable HTTP on 127.0.0.1 only, path /mcp;
//                                    port from --port, else $MCPSH_TS_SERVER_PORT, else 0
//                                    (any free port). When ready it prints one line on
//                                    stdout: "listening http://127.0.0.1:PORT/mcp".
//
// THE CONTRACT (tests rely on it; change it only together with them)
//
// State (notes, counter, the three toggles) is one per process: shared by every HTTP
// session of one server, fresh for every stdio server. Log level, resource
// subscriptions and the roots-changed count are per session. Every notification a
// tool causes reaches the calling session on that call's own stream, before its
// result (over HTTP: the POST's SSE response); other sessions get theirs on their
// standalone GET stream. Server-to-client requests travel on the calling call's stream.
// serverInfo {name "mcpsh-ts-server", title "mcpsh TS SDK test server", version
// "1.0.0"}; `instructions` is the INSTRUCTIONS string below; ping answers {}.
// Capabilities: tools/resources/prompts listChanged, resources subscribe, logging,
// completions. Tool errors are results with isError true and one text content.
//
// Tools. Every annotations object repeats the tool's title. Hints in brackets: [ro] means
// readOnlyHint true, destructiveHint false, idempotentHint true, openWorldHint false; [write]
// means readOnlyHint false, destructiveHint false, idempotentHint false, openWorldHint false;
// d/i/ow = destructive, idempotent, openWorld hints. All four are declared unless said.
//  echo        "Echo" [readOnlyHint true, openWorldHint false, nothing else] {text}
//              -> text: the text. inputExamples [{text:"hello"},{text:"wave"}]
//  add         "Add two numbers" [ro] {a,b numbers} -> text "2 + 3 = 5",
//              structuredContent {sum:5} (outputSchema {sum:number}). inputExamples [{a:2,b:3}]
//  weather     "Weather (fake)" [ro but openWorldHint TRUE] {city}
//              -> "Weather in Paris: sunny, 21°C" (no network). inputExamples [{city:"Paris"}]
//  add_note    "Add a note" [write] {folder,name,text} -> "added notes://F/N"; inputExamples
//              [{folder:"work",name:"plan",text:"Write tests."}];
//              error "notes://F/N exists" if it does. folder/name: [a-z0-9-]+
//  delete_note "Delete a note" [d true, i TRUE, ow false] {folder,name} -> "deleted notes://F/N"
//              or "notes://F/N did not exist" (not an error). inputExamples [{folder:"work",name:"todo"}]
//  pop_note    "Remove the newest note" [d true, i false, ow false] {} -> "removed notes://F/N"
//              (the last added, else the last seeded) or "no notes left"
//              (add/delete/pop send notifications/resources/updated for that note URI to subscribers)
//  mark_read   "Mark a note read" [write + idempotentHint TRUE] {folder,name} -> "notes://F/N is read";
//              error "no note notes://F/N". inputExamples [{folder:"work",name:"todo"}]
//  post_message "Post a message (fake)" [write + openWorldHint TRUE] {to,text} -> "posted to <to>: <text>"
//  conflicted  "Conflicted" [readOnlyHint true AND destructiveHint true, nothing else] {} -> "conflicted ran"
//  no_hints    no title, NO annotations (so every hint is the spec default) {} -> "no hints declared"
//  shifty      "Shifty" starts [ro]; after change_tools [d true, i false, ow false]
//              {} -> "shifty ran (read-only)" / "shifty ran (destructive)"
//  bonus       "Bonus tool" [ro] {} -> "bonus"; listed only after change_tools
//  change_tools     "Change the tool list" [write] {} toggles: shifty's hints, bonus listed;
//                   sends notifications/tools/list_changed; -> "tools changed: shifty is destructive,
//                   bonus added" or "tools changed: shifty is read-only, bonus removed"
//  change_resources "Change the resource list" [write] {} toggles resource mem://extra; sends
//                   notifications/resources/list_changed; -> "resources changed: mem://extra added|removed"
//  change_prompts   "Change the prompt list" [write] {} toggles prompt bonus_prompt; sends
//                   notifications/prompts/list_changed; -> "prompts changed: bonus_prompt added|removed"
//  touch_counter    "Bump the counter" [write] {} increments mem://counter, sends
//                   notifications/resources/updated {uri:"mem://counter"} to each subscribed session;
//                   -> "mem://counter is now 1; notified 1 subscribed session(s)" (over HTTP it
//                   counts every subscribed session not yet ended by a DELETE)
//  log_levels  "Log at every level" [ro] {} sends notifications/message (logger "ts-server", data
//              "<level> message") at debug, info, notice, warning, error, critical, alert, emergency,
//              skipping those below the level set by logging/setLevel (none set: all 8);
//              -> "sent: warning, error, critical, alert, emergency" (the levels sent, in that order)
//  count       "Count with progress" [ro] {n int 1..100 =3, delay_ms int 0..10000 =10} sends
//              notifications/progress {progress i, total n, message "step i of n"} when the call has a
//              progressToken; stops when cancelled; -> "counted to 3". inputExamples [{n:3,delay_ms:10}]
//  ask_form    "Ask for a form" [ro] {} elicitation/create mode form, message "Tell us about you",
//              requestedSchema: email (string, format email, required), age (number 0..150, default 30),
//              subscribe (boolean, default true), color (titled single select: red "Red", green "Green",
//              blue "Blue"; default "green"), nickname (string 1..20 chars, default "ada").
//  ask_choices "Ask for choices" [ro] {} form mode, message "Pick some", every other enum form:
//              size (untitled enum s/m/l, required), legacy (enum a/b + enumNames "Alpha"/"Beta"),
//              tags (untitled multi-select x/y/z, 1..2 items, default ["x"]), langs (titled
//              multi-select go "Go"/ts "TypeScript").
//  ask_visit   "Ask to visit a page" [ro] {} mode url, message "Connect your account",
//              url "https://example.com/connect?session=url-K", elicitationId "url-K" (K = 1, 2, ...
//              per process); on accept it also sends notifications/elicitation/complete {elicitationId}.
//              ask_form, ask_choices and ask_visit return one text content, the JSON of the answer:
//              {"action":"accept","content":{...}} | {"action":"decline"} | {"action":"cancel"}
//              (ask_visit: {"action":"accept","elicitationId":"url-1"}). An accepted answer that
//              fails requestedSchema (the SDK checks) -> error "invalid answer: <reason>".
//  needs_visit "Needs a visit first" [ro] {} fails with JSON-RPC error -32042
//              (URLElicitationRequired), data.elicitations [{mode "url", message "Authorize first",
//              url "https://example.com/authorize", elicitationId "url-needed"}]
//  sample      "Ask the client's model" [ro but openWorldHint TRUE]
//              {prompt ="Say hello"} sends sampling/createMessage {messages [{role user, text
//              prompt}], systemPrompt "You are a test.", maxTokens 100, modelPreferences {hints
//              [{name "test-model"}]}} -> text: JSON of the client's result {"role":..,"model":..,
//              "stopReason":..,"content":{...}}. inputExamples [{prompt:"Say hello"}]
//  list_roots  "List the client's roots" [ro] {} roots/list -> text: JSON {"roots":[...],
//              "listChangedSeen":N} (N = notifications/roots/list_changed received this session)
//  ask_form, ask_choices, ask_visit, sample, list_roots fail with "the client did not declare <cap>"
//  when the client lacks the capability, and "the client refused: <message> (code C)" when the
//  client answers with an error. They wait up to 10 minutes for a human ("the client did not
//  answer in time"), and the wait ends if the call is cancelled.
//
// Resources (resources/list in pages of 2, nextCursor opaque; invalid cursor -> -32602)
//  info://about        "about"   "About this server" text/plain: ABOUT below; annotations
//                      {audience ["user"], priority 1}
//  info://config.json  "config"  application/json: CONFIG below (JSON.stringify, 2-space indent)
//  info://readme.md    "readme"  text/markdown: README below
//  info://pixel.png    "pixel"   image/png blob: PIXEL_PNG below (a 1x1 PNG, 70 bytes)
//  mem://counter       "counter" text/plain "count: N" (N starts at 0), changed by touch_counter
//  mem://extra         "extra"   text/plain "extra resource", listed only after change_resources
// Templates (resources/templates/list, not in resources/list)
//  notes://{folder}/{name}  "note" text/plain: the note's text. Seeded: notes://work/todo
//      "Ship the client.", notes://work/ideas "Subscriptions everywhere.", notes://home/shopping
//      "Milk, eggs.". Completion: folder -> folders starting with the value (sorted);
//      name -> names in context.arguments.folder (all folders without it) starting with the value.
//      A missing note -> JSON-RPC error -32002 "Resource not found: <uri>".
//  echo://{message}         "echo" text/plain: the message, URL-decoded. No completion.
// resources/subscribe accepts a listed URI or an existing note, else -32002. resources/read of
// a URI no resource or template matches, or of mem://extra while unlisted, is the SDK's -32602.
//
// Prompts
//  greet       "Greeting" args name (required; completion from Ada, Alan, Grace),
//              style (optional; completion from casual, formal) -> one user text message
//              "Please greet <name> in a <style, default casual> way."
//  review_note "Review a note" args folder, name (required; completion as the template) -> user
//              messages: text "Review this note:", then an embedded resource {uri, mimeType
//              text/plain, text}; a missing note -> -32002
//  show_pixel  "Show the pixel" no args -> a user image message (PIXEL_PNG, image/png), then an
//              assistant text message "A single pixel."
//  bonus_prompt "Bonus prompt" no args -> user text "bonus"; listed only after change_prompts
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import {
  ListResourcesRequestSchema, SubscribeRequestSchema, UnsubscribeRequestSchema, SetLevelRequestSchema,
  RootsListChangedNotificationSchema, McpError, ErrorCode, UrlElicitationRequiredError,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const INSTRUCTIONS = 'mcpsh-ts-server is a deterministic test server. Read info://about first; notes live at notes://{folder}/{name}.';
const ABOUT = 'mcpsh-ts-server: every client-facing MCP feature, deterministically.\n';
const CONFIG = { name: 'mcpsh-ts-server', pageSize: 2, folders: ['home', 'work'] };
const README = '# mcpsh-ts-server\n\nA test server for **mcpsh**.\n';
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PAGE_SIZE = 2;
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const NOT_FOUND = -32002;
const HUMAN_TIMEOUT = 10 * 60 * 1000;

// Process-wide state.
const state = {
  notes: new Map([['work/todo', 'Ship the client.'], ['work/ideas', 'Subscriptions everywhere.'], ['home/shopping', 'Milk, eggs.']]),
  read: new Set(), counter: 0, toolsChanged: false, extraResource: false, bonusPrompt: false, urlElicitations: 0,
};
const sessions = new Set();

const text = (s) => ({ content: [{ type: 'text', text: s }] });
const fail = (s) => ({ content: [{ type: 'text', text: s }], isError: true });
const json = (v) => text(JSON.stringify(v));
const noteURI = (key) => `notes://${key}`;
const folders = () => [...new Set([...state.notes.keys()].map((k) => k.split('/')[0]))].sort();
const names = (folder) => [...state.notes.keys()].filter((k) => !folder || k.startsWith(folder + '/')).map((k) => k.split('/')[1]).sort();
const startsWith = (list, v) => list.filter((x) => x.startsWith(v ?? ''));
const notFound = (uri) => new McpError(NOT_FOUND, `Resource not found: ${uri}`, { uri });
const slug = z.string().regex(/^[a-z0-9-]+$/);

// notify sends a notification to every session that wants it: the caller on its
// call's stream, the others on their standalone stream.
async function notify(extra, caller, notification, wants = () => true) {
  let n = 0;
  for (const s of sessions) {
    if (!wants(s)) continue;
    n++;
    if (s === caller) await extra.sendNotification(notification);
    else await s.mcp.server.notification(notification).catch(() => {});
  }
  return n;
}
const resourceUpdated = (extra, caller, uri) =>
  notify(extra, caller, { method: 'notifications/resources/updated', params: { uri } }, (s) => s.subscriptions.has(uri));

// ask sends a server-to-client request on the calling call's stream and turns
// what can go wrong into a tool error.
async function ask(session, extra, capability, send) {
  const caps = session.mcp.server.getClientCapabilities() ?? {};
  const [top, sub] = capability.split('.');
  if (!caps[top] || (sub && !caps[top][sub])) return fail(`the client did not declare ${capability}`);
  try {
    return await send({ relatedRequestId: extra.requestId, timeout: HUMAN_TIMEOUT, signal: extra.signal });
  } catch (e) {
    const msg = e.message.replace(/^(MCP error -?\d+: )+/, '');
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) return fail('the client did not answer in time');
    if (e instanceof McpError && msg.includes('does not match requested schema')) return fail(`invalid answer: ${msg}`);
    if (e instanceof McpError) return fail(`the client refused: ${msg} (code ${e.code})`);
    return fail(`the request failed: ${e.message}`);
  }
}

function newSession() {
  const mcp = new McpServer(
    { name: 'mcpsh-ts-server', title: 'mcpsh TS SDK test server', version: '1.0.0' },
    { instructions: INSTRUCTIONS, capabilities: { logging: {}, resources: { subscribe: true, listChanged: true } } },
  );
  const session = { mcp, subscriptions: new Set(), logLevel: undefined, rootsChanged: 0, handles: {} };
  const h = session.handles;
  const RO = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  const write = (idempotentHint = false) => ({ readOnlyHint: false, destructiveHint: false, idempotentHint, openWorldHint: false });
  const tool = (name, title, annotations, inputSchema, cb, extra = {}) =>
    (h[name] = mcp.registerTool(name, { title, annotations: annotations && { title, ...annotations }, inputSchema, ...extra }, cb));

  // --- tools with every annotation case
  tool('echo', 'Echo', { readOnlyHint: true, openWorldHint: false }, { text: z.string().describe('what to echo') }, ({ text: t }) => text(t),
    { description: 'Returns the text unchanged.', _meta: { inputExamples: [{ text: 'hello' }, { text: 'wave' }] } });
  tool('add', 'Add two numbers', RO, { a: z.number(), b: z.number() },
    ({ a, b }) => ({ ...text(`${a} + ${b} = ${a + b}`), structuredContent: { sum: a + b } }),
    { description: 'Adds a and b.', outputSchema: { sum: z.number() }, _meta: { inputExamples: [{ a: 2, b: 3 }] } });
  tool('weather', 'Weather (fake)', { ...RO, openWorldHint: true }, { city: z.string() },
    ({ city }) => text(`Weather in ${city}: sunny, 21°C`), { description: 'A fake forecast; declares open-world.', _meta: { inputExamples: [{ city: 'Paris' }] } });
  tool('add_note', 'Add a note', write(), { folder: slug, name: slug, text: z.string() }, async ({ folder, name, text: t }, extra) => {
    const key = `${folder}/${name}`;
    if (state.notes.has(key)) return fail(`${noteURI(key)} exists`);
    state.notes.set(key, t);
    await resourceUpdated(extra, session, noteURI(key));
    return text(`added ${noteURI(key)}`);
  }, { description: 'Adds a new note; fails if it exists.', _meta: { inputExamples: [{ folder: 'work', name: 'plan', text: 'Write tests.' }] } });
  tool('delete_note', 'Delete a note', { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    { folder: slug, name: slug }, async ({ folder, name }, extra) => {
      const key = `${folder}/${name}`;
      state.read.delete(key);
      if (!state.notes.delete(key)) return text(`${noteURI(key)} did not exist`);
      await resourceUpdated(extra, session, noteURI(key));
      return text(`deleted ${noteURI(key)}`);
    }, { description: 'Deletes a note; deleting it again changes nothing.', _meta: { inputExamples: [{ folder: 'work', name: 'todo' }] } });
  tool('pop_note', 'Remove the newest note', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }, undefined, async (extra) => {
    const key = [...state.notes.keys()].pop();
    if (!key) return text('no notes left');
    state.notes.delete(key);
    state.read.delete(key);
    await resourceUpdated(extra, session, noteURI(key));
    return text(`removed ${noteURI(key)}`);
  }, { description: 'Removes the most recently added note.' });
  tool('mark_read', 'Mark a note read', write(true), { folder: slug, name: slug }, ({ folder, name }) => {
    const key = `${folder}/${name}`;
    if (!state.notes.has(key)) return fail(`no note ${noteURI(key)}`);
    state.read.add(key);
    return text(`${noteURI(key)} is read`);
  }, { description: 'Marks a note read; marking it again changes nothing.', _meta: { inputExamples: [{ folder: 'work', name: 'todo' }] } });
  tool('post_message', 'Post a message (fake)', { ...write(), openWorldHint: true }, { to: z.string(), text: z.string() },
    ({ to, text: t }) => text(`posted to ${to}: ${t}`), { description: 'Pretends to post to the outside world (no network).' });
  tool('conflicted', 'Conflicted', { readOnlyHint: true, destructiveHint: true }, undefined, () => text('conflicted ran'),
    { description: 'Declares both readOnlyHint and destructiveHint true.' });
  h.no_hints = mcp.registerTool('no_hints', { description: 'Declares no annotations at all.' }, () => text('no hints declared'));

  // --- list_changed
  tool('shifty', 'Shifty', RO, undefined, () => text(`shifty ran (${state.toolsChanged ? 'destructive' : 'read-only'})`),
    { description: 'Read-only until change_tools makes it destructive.' });
  tool('bonus', 'Bonus tool', RO, undefined, () => text('bonus'), { description: 'Listed only after change_tools.' });
  tool('change_tools', 'Change the tool list', write(), undefined, async (extra) => {
    state.toolsChanged = !state.toolsChanged;
    syncAll();
    await notify(extra, session, { method: 'notifications/tools/list_changed' });
    return text(state.toolsChanged ? 'tools changed: shifty is destructive, bonus added' : 'tools changed: shifty is read-only, bonus removed');
  }, { description: "Toggles shifty's hints and the bonus tool." });
  tool('change_resources', 'Change the resource list', write(), undefined, async (extra) => {
    state.extraResource = !state.extraResource;
    syncAll();
    await notify(extra, session, { method: 'notifications/resources/list_changed' });
    return text(`resources changed: mem://extra ${state.extraResource ? 'added' : 'removed'}`);
  }, { description: 'Toggles the resource mem://extra.' });
  tool('change_prompts', 'Change the prompt list', write(), undefined, async (extra) => {
    state.bonusPrompt = !state.bonusPrompt;
    syncAll();
    await notify(extra, session, { method: 'notifications/prompts/list_changed' });
    return text(`prompts changed: bonus_prompt ${state.bonusPrompt ? 'added' : 'removed'}`);
  }, { description: 'Toggles the prompt bonus_prompt.' });
  tool('touch_counter', 'Bump the counter', write(), undefined, async (extra) => {
    state.counter++;
    const n = await resourceUpdated(extra, session, 'mem://counter');
    return text(`mem://counter is now ${state.counter}; notified ${n} subscribed session(s)`);
  }, { description: 'Increments mem://counter and tells its subscribers.' });

  // --- logging and progress
  tool('log_levels', 'Log at every level', RO, undefined, async (extra) => {
    const min = LEVELS.indexOf(session.logLevel ?? 'debug');
    const sent = LEVELS.filter((l, i) => i >= min);
    for (const level of sent) {
      await extra.sendNotification({ method: 'notifications/message', params: { level, logger: 'ts-server', data: `${level} message` } });
    }
    return text(`sent: ${sent.join(', ')}`);
  }, { description: 'Logs one message at each level the client asked for.' });
  tool('count', 'Count with progress', RO, { n: z.number().int().min(1).max(100).default(3), delay_ms: z.number().int().min(0).max(10000).default(10) },
    async ({ n, delay_ms }, extra) => {
      const token = extra._meta?.progressToken;
      for (let i = 1; i <= n; i++) {
        await new Promise((r) => setTimeout(r, delay_ms));
        if (extra.signal.aborted) return fail(`cancelled at ${i} of ${n}`);
        if (token !== undefined) {
          await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: n, message: `step ${i} of ${n}` } });
        }
      }
      return text(`counted to ${n}`);
    }, { description: 'Counts to n, reporting progress.', _meta: { inputExamples: [{ n: 3, delay_ms: 10 }] } });

  // --- server-to-client requests
  const answer = (r) => json(r.action === 'accept' ? { action: r.action, content: r.content ?? {} } : { action: r.action });
  tool('ask_form', 'Ask for a form', RO, undefined, (extra) => ask(session, extra, 'elicitation.form', async (o) => answer(await mcp.server.elicitInput({
    mode: 'form', message: 'Tell us about you',
    requestedSchema: {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', title: 'Email', description: 'Where to reach you' },
        age: { type: 'number', title: 'Age', minimum: 0, maximum: 150, default: 30 },
        subscribe: { type: 'boolean', title: 'Subscribe', default: true },
        color: { type: 'string', title: 'Colour', oneOf: [{ const: 'red', title: 'Red' }, { const: 'green', title: 'Green' }, { const: 'blue', title: 'Blue' }], default: 'green' },
        nickname: { type: 'string', title: 'Nickname', minLength: 1, maxLength: 20, default: 'ada' },
      },
      required: ['email'],
    },
  }, o))), { description: 'Asks the client for a form (elicitation, form mode) and returns the answer.' });
  tool('ask_choices', 'Ask for choices', RO, undefined, (extra) => ask(session, extra, 'elicitation.form', async (o) => answer(await mcp.server.elicitInput({
    mode: 'form', message: 'Pick some',
    requestedSchema: {
      type: 'object',
      properties: {
        size: { type: 'string', title: 'Size', enum: ['s', 'm', 'l'] },
        legacy: { type: 'string', title: 'Legacy', enum: ['a', 'b'], enumNames: ['Alpha', 'Beta'] },
        tags: { type: 'array', title: 'Tags', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['x', 'y', 'z'] }, default: ['x'] },
        langs: { type: 'array', title: 'Languages', items: { anyOf: [{ const: 'go', title: 'Go' }, { const: 'ts', title: 'TypeScript' }] } },
      },
      required: ['size'],
    },
  }, o))), { description: 'Asks for every kind of enum a form can hold.' });
  tool('ask_visit', 'Ask to visit a page', RO, undefined, (extra) => ask(session, extra, 'elicitation.url', async (o) => {
    const id = `url-${++state.urlElicitations}`;
    const r = await mcp.server.elicitInput({ mode: 'url', message: 'Connect your account', url: `https://example.com/connect?session=${id}`, elicitationId: id }, o);
    if (r.action !== 'accept') return json({ action: r.action });
    await extra.sendNotification({ method: 'notifications/elicitation/complete', params: { elicitationId: id } });
    return json({ action: 'accept', elicitationId: id });
  }), { description: 'Asks the client to open a page (elicitation, out-of-band mode).' });
  tool('needs_visit', 'Needs a visit first', RO, undefined, () => {
    throw new UrlElicitationRequiredError([{ mode: 'url', message: 'Authorize first', url: 'https://example.com/authorize', elicitationId: 'url-needed' }]);
  }, { description: 'Fails with error -32042: the client must open a page first.' });
  tool('sample', "Ask the client's model", { ...RO, openWorldHint: true }, { prompt: z.string().default('Say hello') },
    ({ prompt }, extra) => ask(session, extra, 'sampling', async (o) => {
      const r = await mcp.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
        systemPrompt: 'You are a test.', maxTokens: 100, modelPreferences: { hints: [{ name: 'test-model' }] },
      }, o);
      return json({ role: r.role, model: r.model, stopReason: r.stopReason, content: r.content });
    }), { description: "Asks the client's model (sampling) and returns its answer.", _meta: { inputExamples: [{ prompt: 'Say hello' }] } });
  tool('list_roots', "List the client's roots", RO, undefined, (extra) => ask(session, extra, 'roots', async (o) => {
    const r = await mcp.server.listRoots(undefined, o);
    return json({ roots: r.roots, listChangedSeen: session.rootsChanged });
  }), { description: 'Calls roots/list and returns the roots.' });
  mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, () => { session.rootsChanged++; });

  // --- resources
  const statics = [
    ['about', 'info://about', { title: 'About this server', mimeType: 'text/plain', annotations: { audience: ['user'], priority: 1 } }, () => ABOUT],
    ['config', 'info://config.json', { title: 'Configuration', mimeType: 'application/json' }, () => JSON.stringify(CONFIG, null, 2)],
    ['readme', 'info://readme.md', { title: 'Read me', mimeType: 'text/markdown' }, () => README],
    ['pixel', 'info://pixel.png', { title: 'A pixel', mimeType: 'image/png', size: 70 }, null],
    ['counter', 'mem://counter', { title: 'Counter', mimeType: 'text/plain', description: 'Bumped by touch_counter; subscribe to it.' }, () => `count: ${state.counter}`],
    ['extra', 'mem://extra', { title: 'Extra', mimeType: 'text/plain' }, () => 'extra resource'],
  ];
  for (const [name, uri, meta, read] of statics) {
    h[uri] = mcp.registerResource(name, uri, meta, (u) => ({
      contents: [read ? { uri: u.href, mimeType: meta.mimeType, text: read() } : { uri: u.href, mimeType: meta.mimeType, blob: PIXEL_PNG }],
    }));
  }
  const noteText = (folder, name) => {
    const t = state.notes.get(`${folder}/${name}`);
    if (t === undefined) throw notFound(noteURI(`${folder}/${name}`));
    return t;
  };
  mcp.registerResource('note', new ResourceTemplate('notes://{folder}/{name}', {
    list: undefined,
    complete: { folder: (v) => startsWith(folders(), v), name: (v, ctx) => startsWith(names(ctx?.arguments?.folder), v) },
  }), { title: 'A note', mimeType: 'text/plain' }, (u, { folder, name }) => ({ contents: [{ uri: u.href, mimeType: 'text/plain', text: noteText(folder, name) }] }));
  mcp.registerResource('echo', new ResourceTemplate('echo://{message}', { list: undefined }), { title: 'Echo', mimeType: 'text/plain' },
    (u, { message }) => ({ contents: [{ uri: u.href, mimeType: 'text/plain', text: decodeURIComponent(message) }] }));
  const listed = () => statics.filter(([, uri]) => uri !== 'mem://extra' || state.extraResource).map(([name, uri, meta]) => ({ uri, name, ...meta }));
  mcp.server.setRequestHandler(ListResourcesRequestSchema, (req) => {
    const cursor = req.params?.cursor;
    const start = cursor === undefined ? 0 : Number(Buffer.from(cursor, 'base64url').toString());
    const all = listed();
    if (!Number.isInteger(start) || start < 0 || start >= all.length) throw new McpError(ErrorCode.InvalidParams, `invalid cursor ${cursor}`);
    const end = start + PAGE_SIZE;
    return { resources: all.slice(start, end), ...(end < all.length && { nextCursor: Buffer.from(String(end)).toString('base64url') }) };
  });
  const subscribable = (uri) => listed().some((r) => r.uri === uri) || (uri.startsWith('notes://') && state.notes.has(uri.slice(8)));
  mcp.server.setRequestHandler(SubscribeRequestSchema, ({ params: { uri } }) => {
    if (!subscribable(uri)) throw notFound(uri);
    session.subscriptions.add(uri);
    return {};
  });
  mcp.server.setRequestHandler(UnsubscribeRequestSchema, ({ params: { uri } }) => (session.subscriptions.delete(uri), {}));
  mcp.server.setRequestHandler(SetLevelRequestSchema, ({ params: { level } }) => ((session.logLevel = level), {}));

  // --- prompts
  mcp.registerPrompt('greet', {
    title: 'Greeting', description: 'Asks for a greeting.',
    argsSchema: {
      name: completable(z.string().describe('who to greet'), (v) => startsWith(['Ada', 'Alan', 'Grace'], v)),
      style: completable(z.string().optional().describe('casual or formal'), (v) => startsWith(['casual', 'formal'], v)),
    },
  }, ({ name, style }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please greet ${name} in a ${style ?? 'casual'} way.` } }] }));
  mcp.registerPrompt('review_note', {
    title: 'Review a note', description: 'Embeds a note for review.',
    argsSchema: {
      folder: completable(z.string(), (v) => startsWith(folders(), v)),
      name: completable(z.string(), (v, ctx) => startsWith(names(ctx?.arguments?.folder), v)),
    },
  }, ({ folder, name }) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: 'Review this note:' } },
      { role: 'user', content: { type: 'resource', resource: { uri: noteURI(`${folder}/${name}`), mimeType: 'text/plain', text: noteText(folder, name) } } },
    ],
  }));
  mcp.registerPrompt('show_pixel', { title: 'Show the pixel', description: 'An image prompt.' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'assistant', content: { type: 'text', text: 'A single pixel.' } },
    ],
  }));
  h.bonus_prompt = mcp.registerPrompt('bonus_prompt', { title: 'Bonus prompt', description: 'Listed only after change_prompts.' },
    () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'bonus' } }] }));

  sync(session);
  sessions.add(session);
  return session;
}

// sync makes a session's registered tools and prompts match the shared state.
// The SDK lists what is enabled; fields are set directly so that it sends no
// list_changed of its own (ours go to every session, the caller's on its call's stream).
function sync(session) {
  const h = session.handles;
  h.shifty.annotations = state.toolsChanged
    ? { title: 'Shifty', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
    : { title: 'Shifty', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  h.bonus.enabled = state.toolsChanged;
  h['mem://extra'].enabled = state.extraResource;
  h.bonus_prompt.enabled = state.bonusPrompt;
}
const syncAll = () => sessions.forEach(sync);

async function serveHTTP(port) {
  const transports = new Map();
  let allowedHosts = [];
  const srv = http.createServer(async (req, res) => {
    try {
      if (new URL(req.url, 'http://127.0.0.1').pathname !== '/mcp') return res.writeHead(404).end('not found\n');
      const sid = req.headers['mcp-session-id'];
      let transport = sid && transports.get(sid);
      if (!transport) {
        if (sid) {
          return res.writeHead(404, { 'content-type': 'application/json' })
            .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        }
        const session = newSession();
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => transports.set(id, transport),
          enableDnsRebindingProtection: true, allowedHosts,
        });
        transport.onclose = () => { transports.delete(transport.sessionId); sessions.delete(session); };
        await session.mcp.connect(transport);
        await transport.handleRequest(req, res);
        if (!transport.sessionId) { sessions.delete(session); await session.mcp.close(); }
        return;
      }
      await transport.handleRequest(req, res);
    } catch (e) {
      process.stderr.write(`mcpsh-ts-server: ${e.stack ?? e}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    }
  });
  await new Promise((resolve, reject) => srv.once('error', reject).listen(port, '127.0.0.1', resolve));
  const p = srv.address().port;
  allowedHosts.push(`127.0.0.1:${p}`, `localhost:${p}`);
  process.stdout.write(`listening http://127.0.0.1:${p}/mcp\n`);
  const stop = () => { srv.closeAllConnections(); srv.close(() => process.exit(0)); };
  process.on('SIGINT', stop).on('SIGTERM', stop);
}

const argv = process.argv.slice(2);
const flag = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write('usage: mcpsh-ts-server [--http [--port N]]   (stdio without --http; port also from $MCPSH_TS_SERVER_PORT)\n');
} else if (argv.includes('--http')) {
  const port = Number(flag('--port') ?? process.env.MCPSH_TS_SERVER_PORT ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`mcpsh-ts-server: bad port ${flag('--port') ?? process.env.MCPSH_TS_SERVER_PORT}\n`);
    process.exit(2);
  }
  await serveHTTP(port);
} else {
  const session = newSession();
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  await session.mcp.connect(transport);
}
