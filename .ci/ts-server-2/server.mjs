#!/usr/bin/env node
// mcpsh-ts-server-2: a small test server written with the TypeScript SDK 2.x
// (@modelcontextprotocol/server, the 2026-07-28 line), for what that protocol
// version removed: there is no `ping` (stdio answers -32601, HTTP -32602 for a
// request without the per-request _meta envelope) and no `logging/setLevel`
// (the level comes from each request's _meta["io.modelcontextprotocol/logLevel"]).
// It serves both eras from one factory: 2026-07-28 when the client opens with
// server/discover, 2025-11-25 when it opens with initialize.
//
//   server.mjs                   stdio (the default)
//   server.mjs --http [--port N] streamable HTTP on 127.0.0.1 only, path /mcp; port
//                                N, else 0 (any free port). When ready it prints one
//                                line on stdout: "listening http://127.0.0.1:PORT/mcp".
//
// THE CONTRACT (tests rely on it; change it only together with them)
//
// serverInfo {name "mcpsh-ts-server-2", version "1.0.0"}; capabilities: tools, logging.
// Tools:
//  log_levels  "Log at several levels" [readOnlyHint true, destructiveHint false,
//              idempotentHint true, openWorldHint false] {} sends notifications/message
//              (logger "ts-server-2", data "<level> message") at debug, info, notice,
//              warning and error, through the SDK's ctx.mcpReq.log: at 2026-07-28 only
//              those at or above the request's _meta logLevel, none when it is absent;
//              at 2025-11-25 those at or above the level logging/setLevel set (all when
//              none was set). -> text "logged".
//
// Tasks (the 2026-07-28 tasks extension, io.modelcontextprotocol/tasks, wire
// shapes from @modelcontextprotocol/ext-tasks core/v2): the server declares the
// extension in its capabilities, and answers the two tools below with a task
// (resultType "task", pollIntervalMs 100) when the request's envelope declares
// the extension in its client capabilities; without it they answer at once with
// the isError text "this tool runs only as a task". Tasks live in the process
// (over HTTP they outlive the request, so a later mcpsh finds them) and move one
// step for each tasks/get, never by the clock:
//  research    "Research, as a task" [readOnlyHint true, openWorldHint false]
//              {topic: string} -> working "Gathering sources on TOPIC", working
//              "Analyzing sources", then input_required with inputRequests
//              {"angle": elicitation/create, message "Which angle?", schema
//              {angle: string, required}}; after tasks/update answers it
//              (accept: its angle; decline or cancel: "none"), working "Writing up
//              (ANGLE)", then completed with text "Report on TOPIC (angle ANGLE)".
//  wait_for_cancel "Runs until cancelled" [readOnlyHint true, openWorldHint false]
//              {} -> working "still waiting (N)" with N counting the polls, for
//              ever, until tasks/cancel: then cancelled, and the task's ID is
//              appended as one line to the file $MCPSH_TS2_CANCELS names (if set).
// tasks/get of an unknown ID is -32602 "unknown task ID"; tasks/cancel of a
// finished task is -32602 too.
import http from 'node:http';
import { Readable } from 'node:stream';
import { McpServer, createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { appendFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { TASKS_EXTENSION_ID_V2, hasTaskClientCapabilityV2, isCreateTaskResultV2, isDetailedTaskV2 } from '@modelcontextprotocol/ext-tasks/core/v2';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error'];

// tasks by ID, for the whole process: over HTTP each request gets a server of
// its own.
const tasks = new Map();

function now() { return new Date().toISOString(); }

// wire is a task as tasks/get answers it (DetailedTask + resultType complete).
function wire(t) {
  const out = { taskId: t.taskId, status: t.status, createdAt: t.createdAt, lastUpdatedAt: t.lastUpdatedAt, ttlMs: 3600000, pollIntervalMs: 100 };
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  if (t.status === 'input_required') out.inputRequests = t.inputRequests;
  if (t.status === 'completed') out.result = t.result;
  return out;
}

function setStatus(t, status, statusMessage) {
  t.status = status;
  t.statusMessage = statusMessage;
  t.lastUpdatedAt = now();
}

// step moves a task on by one, on each tasks/get.
function step(t) {
  if (t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled') return;
  if (t.kind === 'wait') {
    if (t.status === 'working') setStatus(t, 'working', `still waiting (${++t.polls})`);
    return;
  }
  switch (t.stage++) {
    case 0: setStatus(t, 'working', 'Analyzing sources'); break;
    case 1:
      t.inputRequests = { angle: { method: 'elicitation/create', params: { message: 'Which angle?', requestedSchema: { type: 'object', properties: { angle: { type: 'string' } }, required: ['angle'] } } } };
      setStatus(t, 'input_required', 'Waiting for an angle');
      break;
    default:
      if (t.status === 'input_required') { t.stage--; break; }
      if (t.status === 'working' && t.angle !== undefined && !t.written) { t.written = true; setStatus(t, 'working', `Writing up (${t.angle})`); break; }
      t.result = { content: [{ type: 'text', text: `Report on ${t.topic} (angle ${t.angle})` }] };
      setStatus(t, 'completed', 'Done');
  }
}

function taskFor(kind, args) {
  const t = { taskId: randomUUID(), kind, status: 'working', createdAt: now(), lastUpdatedAt: now(), stage: 0, polls: 0, topic: args.topic };
  t.statusMessage = kind === 'wait' ? 'still waiting (0)' : `Gathering sources on ${args.topic}`;
  tasks.set(t.taskId, t);
  const created = { resultType: 'task', ...wire(t) };
  if (!isCreateTaskResultV2(created)) throw new Error('ts-server-2: a created task that ext-tasks would not read');
  return created;
}

function knownTask(taskId) {
  const t = tasks.get(taskId);
  if (!t) throw Object.assign(new Error('unknown task ID'), { code: -32602 });
  return t;
}

function declaresTasks(ctx) {
  const envelope = ctx.mcpReq.envelope ?? {};
  return hasTaskClientCapabilityV2({ _meta: { ...(ctx.mcpReq._meta ?? {}), ...envelope } });
}

function addTasks(server) {
  const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false };
  const onlyAsTask = { content: [{ type: 'text', text: 'this tool runs only as a task' }], isError: true };
  server.registerTool('research', {
    title: 'Research, as a task',
    description: 'Researches a topic as a task: reports its progress, asks once for an angle, then answers.',
    inputSchema: z.object({ topic: z.string() }),
    annotations: { title: 'Research, as a task', ...annotations },
  }, async (args, ctx) => (declaresTasks(ctx) ? taskFor('research', args) : onlyAsTask));
  server.registerTool('wait_for_cancel', {
    title: 'Runs until cancelled',
    description: 'A task that never ends by itself.',
    annotations: { title: 'Runs until cancelled', ...annotations },
  }, async (ctx) => (declaresTasks(ctx) ? taskFor('wait', {}) : onlyAsTask));
  const id = { params: z.object({ taskId: z.string() }).passthrough() };
  server.server.setRequestHandler('tasks/get', id, async (params) => {
    const t = knownTask(params.taskId);
    step(t);
    const out = wire(t);
    if (!isDetailedTaskV2(out)) throw new Error('ts-server-2: a task that ext-tasks would not read');
    return out;
  });
  // The SDK lifts inputResponses out of every request's params (its
  // multi-round-trip seam) into ctx.mcpReq.
  server.server.setRequestHandler('tasks/update', id, async (params, ctx) => {
    const t = knownTask(params.taskId);
    const answer = (ctx.mcpReq.inputResponses ?? params.inputResponses ?? {}).angle;
    if (t.status === 'input_required' && answer !== undefined) {
      t.angle = answer.action === 'accept' && typeof answer.content?.angle === 'string' ? answer.content.angle : 'none';
      delete t.inputRequests;
      setStatus(t, 'working', `Angle: ${t.angle}`);
    }
    return {};
  });
  server.server.setRequestHandler('tasks/cancel', id, async (params) => {
    const t = knownTask(params.taskId);
    if (t.status === 'completed' || t.status === 'failed' || t.status === 'cancelled') {
      throw Object.assign(new Error(`task ${t.taskId} has already ended (${t.status})`), { code: -32602 });
    }
    setStatus(t, 'cancelled', 'Cancelled at the client\'s request');
    if (process.env.MCPSH_TS2_CANCELS) appendFileSync(process.env.MCPSH_TS2_CANCELS, `${t.taskId}\n`);
    return {};
  });
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID_V2]: {} } });
}

function factory() {
  const server = new McpServer({ name: 'mcpsh-ts-server-2', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
  addTasks(server);
  server.registerTool('log_levels', {
    title: 'Log at several levels',
    description: 'Logs one message at each of debug, info, notice, warning and error; the client chooses which it hears.',
    annotations: { title: 'Log at several levels', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, async (ctx) => {
    for (const level of LEVELS) {
      await ctx.mcpReq.log(level, `${level} message`, 'ts-server-2');
    }
    return { content: [{ type: 'text', text: 'logged' }] };
  });
  return server;
}

const args = process.argv.slice(2);
if (!args.includes('--http')) {
  serveStdio(factory, { onerror: (e) => console.error(`ts-server-2: ${e.message}`) });
} else {
  const i = args.indexOf('--port');
  const port = i >= 0 ? Number(args[i + 1]) : 0;
  const handler = createMcpHandler(factory, { onerror: (e) => console.error(`ts-server-2: ${e.message}`) });
  const srv = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks);
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method,
        headers: Object.entries(req.headers).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]])),
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body,
      });
      const url = new URL(request.url);
      const response = url.pathname !== '/mcp'
        ? new Response('not found', { status: 404 })
        : hostHeaderValidationResponse(request, localhostAllowedHostnames()) ?? (await handler.fetch(request));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body) {
        const out = Readable.fromWeb(response.body);
        req.on('close', () => out.destroy());
        out.pipe(res);
      } else {
        res.end();
      }
    } catch (e) {
      console.error(`ts-server-2: ${e.message}`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  });
  srv.listen(port, '127.0.0.1', () => {
    console.log(`listening http://127.0.0.1:${srv.address().port}/mcp`);
  });
}
