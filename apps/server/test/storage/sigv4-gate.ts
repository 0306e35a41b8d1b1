import { createHash, createHmac } from 'node:crypto';
import {
  Agent,
  createServer,
  request as forward,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * s3rver 3.7 accepts any AWS Signature V4 (its source: "Signature version 4 calculation is
 * unimplemented"); it only checks that the access key exists and, for presigned links, the
 * expiry. This gate sits in front of it and does what S3 does: recompute the V4 signature of each
 * incoming request from the request as received (method, path, query, the signed headers' values)
 * with the secret of its access key, and refuse with 403 SignatureDoesNotMatch when they differ.
 * It follows the published algorithm (docs.aws.amazon.com, "Signature Version 4 signing
 * process"), independently of the SDK. Requests with an unknown key or no signature go on to
 * s3rver, which answers them itself.
 */

interface Signed {
  accessKeyId: string;
  /** `yyyymmdd/region/service/aws4_request` */
  scope: string;
  amzDate: string;
  signedHeaders: string[];
  signature: string;
  payloadHash: string;
  presigned: boolean;
}

export interface SigV4Gate {
  /** `http://127.0.0.1:<port>`: use it as the S3 endpoint. */
  url: string;
  close(): Promise<void>;
}

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function readSignature(request: IncomingMessage, query: URLSearchParams): Signed | null {
  const credential = query.get('X-Amz-Credential');
  if (credential !== null) {
    const [accessKeyId = '', ...scope] = credential.split('/');
    return {
      accessKeyId,
      scope: scope.join('/'),
      amzDate: query.get('X-Amz-Date') ?? '',
      signedHeaders: (query.get('X-Amz-SignedHeaders') ?? '').split(';'),
      signature: query.get('X-Amz-Signature') ?? '',
      payloadHash: query.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
      presigned: true,
    };
  }
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=(\w+)$/.exec(
      request.headers.authorization ?? '',
    );
  if (!match) return null;
  const [, credentialPart = '', headers = '', signature = ''] = match;
  const [accessKeyId = '', ...scope] = credentialPart.split('/');
  const header = (name: string) => String(request.headers[name] ?? '');
  return {
    accessKeyId,
    scope: scope.join('/'),
    amzDate: header('x-amz-date'),
    signedHeaders: headers.split(';'),
    signature,
    payloadHash: header('x-amz-content-sha256'),
    presigned: false,
  };
}

/** The V4 signature the request should carry, computed from the request as received. */
function expectedSignature(request: IncomingMessage, signed: Signed, secret: string): string {
  const url = new URL(request.url ?? '/', 'http://gate');
  const query = [...url.searchParams]
    .filter(([name]) => !(signed.presigned && name === 'X-Amz-Signature'))
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signed.signedHeaders
    .map((name) => {
      const raw = request.headers[name];
      const value = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
      return `${name}:${value.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const rawPath = (request.url ?? '/').split('?', 1)[0] ?? '/';
  const canonicalRequest = [
    request.method ?? 'GET',
    rawPath,
    query,
    headers,
    signed.signedHeaders.join(';'),
    signed.payloadHash,
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    signed.amzDate,
    signed.scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const key = signed.scope
    .split('/')
    .reduce<Buffer | string>((k, part) => hmac(k, part), `AWS4${secret}`);
  return hmac(key, stringToSign).toString('hex');
}

function refuse(request: IncomingMessage, response: ServerResponse): void {
  request.resume();
  request.once('end', () => {
    response.writeHead(403, { 'content-type': 'application/xml', connection: 'close' });
    response.end(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code>' +
        '<Message>The request signature we calculated does not match the signature you provided.' +
        '</Message></Error>',
    );
  });
}

/** Starts a verifying gate on a free loopback port in front of the S3 server at `upstream`. */
export async function startSigV4Gate(
  upstream: string,
  secrets: Record<string, string>,
): Promise<SigV4Gate> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://gate').searchParams;
    const signed = readSignature(request, query);
    const secret = signed ? secrets[signed.accessKeyId] : undefined;
    if (
      signed &&
      secret !== undefined &&
      expectedSignature(request, signed, secret) !== signed.signature
    ) {
      refuse(request, response);
      return;
    }
    const upstreamRequest = forward(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: request.headers,
        agent,
      },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstreamRequest.on('error', () => response.destroy());
    request.pipe(upstreamRequest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      agent.destroy();
    },
  };
}
