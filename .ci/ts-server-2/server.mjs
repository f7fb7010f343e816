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
import http from 'node:http';
import { Readable } from 'node:stream';
import { McpServer, createMcpHandler, hostHeaderValidationResponse, localhostAllowedHostnames } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error'];

function factory() {
  const server = new McpServer({ name: 'mcpsh-ts-server-2', version: '1.0.0' }, { capabilities: { tools: {}, logging: {} } });
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
