import http from 'node:http';
import net from 'node:net';

export interface Answer {
  status: number;
  body: string;
  location: string | undefined;
  setCookie: string[];
}

/** The answer to a request made with node:http, read whole as text. */
export function answerTo(request: http.ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          location: response.headers.location,
          setCookie: response.headers['set-cookie'] ?? [],
        }),
      );
    });
    request.on('error', reject);
  });
}

/**
 * One request on a connection of its own, its headers sent as given: no keep-alive pool hides a
 * refused connection, and fetch would not send a made-up Host header.
 */
export function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const request = http.request(url, {
    method: options.method ?? 'GET',
    headers: options.headers,
    agent: false,
  });
  const answer = answerTo(request);
  request.end(options.body);
  return answer;
}

/** A request as it goes on the wire: its head, and a body of `bodyBytes` bytes of `a`. */
export interface WireRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  bodyBytes?: number;
}

/** What one connection carried back: the answers it gave, in order, and how it ended. */
export interface Exchange {
  answers: Array<{ status: number; headers: Record<string, string> }>;
  /** `closed`: the server ended the connection; `open`: it was still open after the last answer. */
  end: 'closed' | 'open';
}

const CRLF = '\r\n';

/**
 * Adds the whole HTTP/1.1 answers at the start of `data` to `answers`, each read with its body
 * (Content-Length or chunked); returns where the first incomplete one starts.
 */
function parseAnswers(data: Buffer, answers: Exchange['answers']): number {
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf(CRLF + CRLF, offset);
    if (headEnd < 0) return offset;
    const [statusLine = '', ...lines] = data.subarray(offset, headEnd).toString('latin1').split(CRLF);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let cursor = headEnd + 4;
    if (headers['transfer-encoding']?.includes('chunked')) {
      for (;;) {
        const sizeEnd = data.indexOf(CRLF, cursor);
        if (sizeEnd < 0) return offset;
        const size = Number.parseInt(data.subarray(cursor, sizeEnd).toString('latin1'), 16);
        cursor = sizeEnd + 2 + size + 2;
        if (cursor > data.length) return offset;
        if (size === 0) break;
      }
    } else {
      cursor += Number(headers['content-length'] ?? 0);
      if (cursor > data.length) return offset;
    }
    answers.push({ status: Number(statusLine.split(' ')[1]), headers });
    offset = cursor;
  }
}

/**
 * Sends `first` on a fresh TCP connection, body and all, and, once its answer has come, `second`
 * on the same connection unless the server has ended it. Resolves with the answers and how the
 * connection ended; rejects when the server neither answers nor ends it within `waitMs` (a hang).
 */
export function exchangeOnOneConnection(
  baseUrl: string,
  first: WireRequest,
  second: WireRequest,
  waitMs = 5_000,
): Promise<Exchange> {
  const { hostname, port, host } = new URL(baseUrl);
  const head = (request: WireRequest) =>
    Buffer.from(
      [
        `${request.method} ${request.path} HTTP/1.1`,
        `host: ${host}`,
        ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
        ...(request.bodyBytes ? [`content-length: ${request.bodyBytes}`] : []),
        '',
        '',
      ].join(CRLF),
      'latin1',
    );
  return new Promise((resolve, reject) => {
    const answers: Exchange['answers'] = [];
    let received = Buffer.alloc(0);
    let secondSent = false;
    const socket = net.connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`No answer and no close within ${waitMs} ms; answers so far: ${answers.length}`));
    }, waitMs);
    const finish = (end: Exchange['end']) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, end });
    };
    socket.on('connect', () => {
      socket.write(head(first));
      // Written in one go: the server may answer before reading any of it.
      if (first.bodyBytes) socket.write(Buffer.alloc(first.bodyBytes, 'a'));
    });
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      received = received.subarray(parseAnswers(received, answers));
      if (answers.length === 1 && !secondSent) {
        secondSent = true;
        socket.write(head(second));
        if (second.bodyBytes) socket.write(Buffer.alloc(second.bodyBytes, 'a'));
      } else if (answers.length === 2) {
        finish('open');
      }
    });
    // The server may end the connection with the client's body still unread: a reset, not an error.
    socket.on('error', () => {});
    socket.on('close', () => finish('closed'));
  });
}
