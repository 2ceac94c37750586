import net from "node:net";

/**
 * A bare TCP client for what fetch cannot do: several requests on one keep-alive connection,
 * a body sent only in part, bytes dripped slowly. It collects what the server sends and when the
 * connection ends.
 */
export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far, as latin1 text. */
  received: () => string;
  /** Resolves when `test(received)` holds, or with false after `ms`. */
  waitFor: (test: (received: string) => boolean, ms: number) => Promise<boolean>;
  /** Resolves true when the server closed the connection within `ms`. */
  closedWithin: (ms: number) => Promise<boolean>;
  write: (data: string | Buffer) => Promise<void>;
  close: () => void;
}

export function rawConnect(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let closed = false;
    const listeners = new Set<() => void>();
    const notify = () => listeners.forEach((l) => l());
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      notify();
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      closed = true;
      notify();
    });
    const waitFor = (test: (received: string) => boolean, ms: number) =>
      new Promise<boolean>((done) => {
        const check = () => {
          if (test(text)) finish(true);
          else if (closed) finish(test(text));
        };
        const timer = setTimeout(() => finish(false), ms);
        const finish = (value: boolean) => {
          clearTimeout(timer);
          listeners.delete(check);
          done(value);
        };
        listeners.add(check);
        check();
      });
    socket.once("connect", () =>
      resolve({
        socket,
        received: () => text,
        waitFor,
        closedWithin: (ms) =>
          new Promise<boolean>((done) => {
            if (closed) return done(true);
            const timer = setTimeout(() => done(false), ms);
            socket.once("close", () => {
              clearTimeout(timer);
              done(true);
            });
          }),
        write: (data) =>
          new Promise<void>((done) => {
            if (socket.destroyed) return done();
            socket.write(data, () => done());
          }),
        close: () => socket.destroy(),
      }),
    );
    socket.once("error", reject);
  });
}

/** Status codes of the complete HTTP responses in `text`, in order. */
export function statusesIn(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}
