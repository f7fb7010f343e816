#!/usr/bin/env node
// mcpsh-ts-host: an MCP host made of the official TypeScript SDK's Client, for
// mcpsh's end-to-end tests of `mcpsh proxy` (it plays the agent's host: Claude
// Code, Cursor and VS Code are TypeScript SDK clients). It connects, runs a
// scripted scenario, and prints what it saw.
//
//   host.js [OPTIONS] [STEP...] --stdio COMMAND ARGS...   start COMMAND, speak stdio
//   host.js [OPTIONS] [STEP...] --url URL [--header K:V]  streamable HTTP
//
// OPTIONS
//   --scenario FILE     the scenario as JSON (below); "-" reads stdin. STEPs on the
//                       command line run after the file's.
//   --name N, --version V   clientInfo (default mcpsh-ts-host 1.0.0)
//   --elicit ACTIONS    declare the elicitation capability (form) and answer each
//                       elicitation/create with the next of ACTIONS, a comma-separated
//                       list of accept, decline, cancel (the last one repeats).
//                       accept answers with --elicit-content (default {"decision":"run"}).
//   --elicit-content JSON
//   --header K:V        an HTTP header on every request (--url only); repeatable.
//
// STEP (on the command line)
//   list                list every tool, page by page
//   call:NAME[:JSON]    call NAME with JSON arguments (default {})
//   cancel:NAME:FILE:LINE  call NAME with {} and cancel it once FILE has a line
//                       equal to LINE (the server's own record that the call arrived)
//
// Scenario file: {"name":..., "version":..., "elicit": "accept" | ["accept","decline"],
//   "elicitContent": {...}, "headers": {"K": "V"}, "steps": [
//     {"op":"list"},
//     {"op":"call","name":"read","arguments":{...}},
//     {"op":"call","name":"slow","cancelWhen":{"file":PATH,"line":"slow"}}]}
//
// OUTPUT: one JSON line per event on stdout, in order:
//   {"op":"connect","protocolVersion":..,"serverInfo":..,"capabilities":..,"instructions":..}
//   {"op":"list","tools":[...every tool as the SDK parsed it...],"pages":N}
//   {"op":"call","name":..,"result":{...}} or {"op":"call","name":..,"error":{"code":..,"message":..}}
//   {"op":"elicitation","message":..,"requestedSchema":..,"action":..}   when asked
//   {"op":"done"}
// A failure to connect prints {"op":"connect","error":...} and exits 1; a bad
// command line exits 2 with the reason on stderr. Nothing else goes to stdout.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { readFileSync } from "node:fs";

function usage(msg) {
  process.stderr.write(`host.js: ${msg}\n`);
  process.exit(2);
}

function out(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function parseJSON(text, where) {
  try {
    return JSON.parse(text);
  } catch (e) {
    usage(`${where}: not JSON: ${e.message}`);
  }
}

function parseStep(s) {
  const [op, ...rest] = s.split(":");
  switch (op) {
    case "list":
      return { op: "list" };
    case "call": {
      if (!rest[0]) usage(`step ${JSON.stringify(s)}: want call:NAME[:JSON]`);
      const args = rest.length > 1 ? parseJSON(rest.slice(1).join(":"), `step ${s}`) : {};
      return { op: "call", name: rest[0], arguments: args };
    }
    case "cancel":
      if (rest.length < 3) usage(`step ${JSON.stringify(s)}: want cancel:NAME:FILE:LINE`);
      return { op: "call", name: rest[0], arguments: {}, cancelWhen: { file: rest[1], line: rest.slice(2).join(":") } };
  }
  usage(`unknown step ${JSON.stringify(s)} (want list, call:NAME[:JSON] or cancel:NAME:FILE:LINE)`);
}

function parseArgs(argv) {
  const cfg = { name: "mcpsh-ts-host", version: "1.0.0", elicit: null, elicitContent: { decision: "run" }, headers: {}, steps: [] };
  const cliSteps = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case "--stdio":
        if (i + 1 >= argv.length) usage("--stdio needs a command");
        cfg.stdio = argv.slice(i + 1);
        i = argv.length;
        break;
      case "--url":
        cfg.url = value();
        break;
      case "--header": {
        const h = value();
        const at = h.indexOf(":");
        if (at <= 0) usage(`--header ${JSON.stringify(h)}: want K:V`);
        cfg.headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
        break;
      }
      case "--scenario": {
        const f = value();
        const s = parseJSON(readFileSync(f === "-" ? 0 : f, "utf8"), f);
        for (const k of ["name", "version", "elicit", "elicitContent"]) if (s[k] !== undefined) cfg[k] = s[k];
        Object.assign(cfg.headers, s.headers || {});
        cfg.steps.push(...(s.steps || []));
        break;
      }
      case "--name":
        cfg.name = value();
        break;
      case "--version":
        cfg.version = value();
        break;
      case "--elicit":
        cfg.elicit = value().split(",");
        break;
      case "--elicit-content":
        cfg.elicitContent = parseJSON(value(), "--elicit-content");
        break;
      default:
        if (a.startsWith("--")) usage(`unknown flag ${a}`);
        cliSteps.push(parseStep(a));
    }
  }
  cfg.steps.push(...cliSteps);
  if (!cfg.stdio === !cfg.url) usage("want exactly one of --stdio COMMAND ARGS... or --url URL");
  if (cfg.stdio && Object.keys(cfg.headers).length) usage("--header is for --url");
  if (typeof cfg.elicit === "string") cfg.elicit = [cfg.elicit];
  for (const act of cfg.elicit || []) {
    if (!["accept", "decline", "cancel"].includes(act)) usage(`elicitation answer ${JSON.stringify(act)}: want accept, decline or cancel`);
  }
  return cfg;
}

// errorOf is a thrown error as the test reads it: the JSON-RPC code when the
// SDK has one (McpError), and the message.
function errorOf(e) {
  return { code: typeof e?.code === "number" ? e.code : null, message: String(e?.message ?? e) };
}

// whenLine resolves once file has a line equal to line: the server's own
// record that a call reached it, so a cancellation is sent while the call
// is in flight, never on a timer.
function whenLine(file, line) {
  return new Promise((resolve) => {
    const look = () => {
      let text = "";
      try {
        text = readFileSync(file, "utf8");
      } catch {}
      if (text.split("\n").includes(line)) return resolve();
      setTimeout(look, 10);
    };
    look();
  });
}

async function main() {
  const cfg = parseArgs(process.argv.slice(2));
  const capabilities = {};
  if (cfg.elicit) capabilities.elicitation = { form: {} };
  const client = new Client({ name: cfg.name, version: cfg.version }, { capabilities });

  if (cfg.elicit) {
    let n = 0;
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      const action = cfg.elicit[Math.min(n++, cfg.elicit.length - 1)];
      out({ op: "elicitation", message: req.params.message, requestedSchema: req.params.requestedSchema, action });
      return action === "accept" ? { action, content: cfg.elicitContent } : { action };
    });
  }

  const transport = cfg.stdio
    ? new StdioClientTransport({ command: cfg.stdio[0], args: cfg.stdio.slice(1), env: process.env, stderr: "inherit" })
    : new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers } });

  // The SDK keeps the negotiated version to itself but hands it to a
  // transport that asks (streamable HTTP does, stdio does not).
  let protocolVersion = null;
  const setVersion = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v) => {
    protocolVersion = v;
    setVersion?.(v);
  };
  try {
    await client.connect(transport);
  } catch (e) {
    out({ op: "connect", error: errorOf(e) });
    process.exit(1);
  }
  out({
    op: "connect",
    protocolVersion,
    serverInfo: client.getServerVersion() ?? null,
    capabilities: client.getServerCapabilities() ?? null,
    instructions: client.getInstructions() ?? null,
  });

  for (const step of cfg.steps) {
    switch (step.op) {
      case "list": {
        const tools = [];
        let cursor, pages = 0;
        try {
          do {
            const page = await client.listTools(cursor ? { cursor } : {});
            pages++;
            tools.push(...page.tools);
            cursor = page.nextCursor;
          } while (cursor);
          out({ op: "list", tools, pages });
        } catch (e) {
          out({ op: "list", error: errorOf(e) });
        }
        break;
      }
      case "call": {
        const ac = new AbortController();
        if (step.cancelWhen) whenLine(step.cancelWhen.file, step.cancelWhen.line).then(() => ac.abort("cancelled by the host"));
        try {
          const result = await client.callTool({ name: step.name, arguments: step.arguments ?? {} }, undefined, { signal: ac.signal, timeout: 120000 });
          out({ op: "call", name: step.name, result });
        } catch (e) {
          out({ op: "call", name: step.name, cancelled: ac.signal.aborted, error: errorOf(e) });
        }
        break;
      }
      default:
        usage(`unknown op ${JSON.stringify(step.op)} (want list or call)`);
    }
  }
  out({ op: "done" });
  await client.close();
}

main().catch((e) => {
  process.stderr.write(`host.js: ${e?.stack ?? e}\n`);
  process.exit(1);
});
