import http from 'node:http';

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
