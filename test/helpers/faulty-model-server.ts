/**
 * An Ollama on a raw TCP socket, so that a test can make it fail the way real
 * backends fail below HTTP: refuse connections, accept and stay silent, answer
 * bytes that are no HTTP, die half-way through an answer, or trickle an answer
 * slower than LLM_TIMEOUT_MS. In 'ok' mode it answers like a healthy Ollama.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type ModelFault = 'ok' | 'refuse' | 'silent' | 'garbage' | 'not-json' | 'dies-mid-answer' | 'trickle';

export interface FaultyModelServer {
  url: string;
  /** Connections accepted so far (answered or not). */
  connections(): number;
  /** How /api/chat fails from now on ('refuse' stops listening; any other mode listens again on the same port). */
  setFault(fault: ModelFault): Promise<void>;
  close(): Promise<void>;
}

const ANSWER = JSON.stringify({ model: 'tiny', message: { role: 'assistant', content: '{"total": 9.5}' }, done: true, done_reason: 'stop' });

function respond(socket: Socket, status: number, body: string, type = 'application/json'): void {
  socket.end(`HTTP/1.1 ${status} OK\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

export async function startFaultyOllama(): Promise<FaultyModelServer> {
  let fault: ModelFault = 'ok';
  let accepted = 0;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const handle = (socket: Socket, head: string): void => {
    const path = /^[A-Z]+ (\S+)/.exec(head)?.[1] ?? '';
    if (path === '/api/tags') return respond(socket, 200, JSON.stringify({ models: [{ name: 'tiny:latest', model: 'tiny:latest' }] }));
    if (path === '/api/show') return respond(socket, 200, JSON.stringify({ capabilities: ['completion'] }));
    switch (fault) {
      case 'silent':
        return;
      case 'garbage':
        socket.end('\x00\xffSSH-2.0-not-http\r\n\r\n\x13\x37');
        return;
      case 'not-json':
        return respond(socket, 200, '<html><body>502 Bad Gateway</body></html>', 'text/html');
      case 'dies-mid-answer':
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\n\r\n${ANSWER.slice(0, 20)}`);
        setTimeout(() => socket.destroy(), 20);
        return;
      case 'trickle': {
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${ANSWER.length}\r\n\r\n`);
        let sent = 0;
        const timer = setInterval(() => {
          if (socket.destroyed || sent >= ANSWER.length) return clearInterval(timer);
          socket.write(ANSWER[sent++]!);
        }, 200);
        timers.add(timer);
        return;
      }
      default:
        return respond(socket, 200, ANSWER);
    }
  };
  const onConnection = (socket: Socket): void => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString('latin1');
      const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length < end + 4 + length) return;
      socket.removeAllListeners('data');
      handle(socket, head);
    });
  };
  let server: Server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stopListening = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    setFault: async (next) => {
      fault = next;
      if (next === 'refuse') {
        for (const socket of sockets) socket.destroy();
        return stopListening();
      }
      if (server.listening) return;
      server = createServer(onConnection);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await stopListening();
    },
  };
}
