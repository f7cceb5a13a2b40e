/**
 * An answer sent before the request's body was read (a 413 for a
 * Content-Length past MAX_BODY_BYTES, a 401 before the body) closes the
 * connection, since the unread bytes are no next request. Node then destroys
 * the socket as soon as the answer is written, and the client's next body
 * bytes meet a TCP reset, which can drop the answer from the client's receive
 * buffer before it reads it: the caller sees "connection reset" instead of
 * the 413 (seen with a 61 MB upload). As nginx's lingering close does, the
 * socket here only half-closes after the answer (FIN), and is destroyed when
 * the client closes its side or after LINGER_MS. (A chunked body past the
 * limit needs none of this: body-parser answers once the client has sent it.)
 */
import type { Socket } from 'node:net';

/** How long a client may go on sending after its answer, to read the answer. */
export const LINGER_MS = 5_000;

const lingering = new WeakSet<Socket>();

/** Makes the close Node does after this response a lingering one. Call before the response is sent. */
export function closeGentlyAfterAnswer(socket: Socket | null | undefined): void {
  if (!socket || lingering.has(socket)) return;
  lingering.add(socket);
  // Node's HTTP server calls destroySoon once a `Connection: close` response is written: end() and then destroy()
  const socketWithDestroySoon = socket as Socket & { destroySoon?: () => void };
  if (typeof socketWithDestroySoon.destroySoon !== 'function') return;
  socketWithDestroySoon.destroySoon = () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.end(); // FIN: the client reads the answer and closes, or is cut at LINGER_MS
    socket.resume();
  };
}
