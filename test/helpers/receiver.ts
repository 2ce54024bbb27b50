import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real local HTTP server receiving webhooks: it records every request and answers each with the
 * next status of `answers` (the last one repeats), optionally with headers.
 */
export class Receiver {
  readonly received: Received[] = [];
  answers: { status: number; headers?: Record<string, string> }[] = [{ status: 200 }];
  private server: Server | undefined;

  get url(): string {
    const { port } = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${port}/hook`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const answer = this.answers.length > 1 ? this.answers.shift() : this.answers[0];
        response.writeHead(answer?.status ?? 200, answer?.headers).end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(port, '127.0.0.1', resolve));
    return this;
  }

  /** The payloads received, parsed. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get payloads(): any[] {
    return this.received.map((r) => JSON.parse(r.body) as unknown);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
