import { request } from 'node:http';

/** What {@link viewFetch} sends. */
export interface ViewRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * `fetch` for the web view's own address (`http://memoir-<random>.localhost:<port>/…`), which a
 * browser resolves to this machine and Node does not: it connects to 127.0.0.1 and sends the
 * name as Host, as a browser does. Redirects are never followed (as `redirect: 'manual'`).
 */
export function viewFetch(url: string, init: ViewRequest = {}): Promise<Response> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: Number(target.port),
        path: `${target.pathname}${target.search}`,
        method: init.method ?? 'GET',
        headers: { host: target.host, ...init.headers },
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            for (const each of Array.isArray(value) ? value : [value ?? '']) headers.append(name, each);
          }
          const status = res.statusCode ?? 0;
          resolve(new Response(status === 204 || status === 304 ? null : Buffer.concat(parts), { status, headers }));
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
