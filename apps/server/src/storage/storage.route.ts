import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  AppError,
  badRequest,
  forbidden,
  notFound,
  payloadTooLarge,
  unsupportedMediaType,
} from '../errors.js';
import {
  BodyInterruptedError,
  ObjectSizeMismatchError,
  ObjectTooLargeError,
} from './byte-limit.js';
import { attachmentDisposition, mediaTypeEssence } from './http-headers.js';
import { UnsafeKeyError } from './keys.js';
import { LOCAL_OBJECT_PATH, LocalObjectStore } from './local-store.js';
import type { ObjectStore } from './object-store.js';
import { parseByteRange } from './range.js';
import type { GetGrant, PutGrant } from './signing.js';

const INVALID_LINK = 'This storage link is not valid.';
const TOO_LARGE = 'The file is larger than this upload link allows.';
/** Stored objects are user content: never let a browser run them as a page of this origin. */
const OBJECT_CSP = "default-src 'none'; sandbox";

/** How long (ms) and how much more (bytes) a refused upload is read and discarded; see below. */
const LINGER_MS = 5_000;
const LINGER_BYTES = 8 * 1024 * 1024;

type Op = 'get' | 'put';

/**
 * After refusing an upload whose body is still arriving: read and discard the rest for a while,
 * so that the client can read the answer (closing at once resets the connection under a client
 * that is still sending, and it may never see the 413), then close the connection.
 */
function discardRestOfBody(request: FastifyRequest): void {
  const raw = request.raw;
  if (raw.complete) return;
  let bytes = 0;
  const close = () => {
    clearTimeout(timer);
    raw.socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  raw.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > LINGER_BYTES) close();
  });
  raw.once('close', () => {
    clearTimeout(timer);
  });
  raw.resume();
}

/** The verified grant of the request's link, or the AppError that refuses it. */
function grantFor(store: LocalObjectStore, request: FastifyRequest, op: 'put'): PutGrant;
function grantFor(store: LocalObjectStore, request: FastifyRequest, op: 'get'): GetGrant;
function grantFor(store: LocalObjectStore, request: FastifyRequest, op: Op): PutGrant | GetGrant {
  const query = new URL(request.url, 'http://localhost').searchParams;
  const result = store.verifyLink(query);
  switch (result.status) {
    case 'malformed':
      throw badRequest(INVALID_LINK);
    case 'bad_signature':
      throw forbidden(INVALID_LINK);
    case 'expired':
      throw forbidden(
        op === 'put' ? 'This upload link has expired.' : 'This download link has expired.',
      );
    case 'ok':
      if (result.grant.op !== op) {
        throw forbidden(
          op === 'put'
            ? 'This link does not allow uploads.'
            : 'This link does not allow downloads.',
        );
      }
      return result.grant;
  }
}

/** Store failures that are the uploader's doing, as AppErrors; anything else is a fault. */
function uploadError(error: unknown): unknown {
  if (error instanceof ObjectTooLargeError) return payloadTooLarge(TOO_LARGE);
  if (error instanceof ObjectSizeMismatchError) {
    return badRequest('The file size does not match the size declared for this upload.');
  }
  if (error instanceof BodyInterruptedError) {
    return badRequest('The upload was interrupted. Please try again.');
  }
  if (error instanceof UnsafeKeyError) return badRequest(INVALID_LINK);
  return error;
}

/**
 * PUT: checks the link, the content type (415) and the declared Content-Length (413) before
 * reading anything, then streams the body to disk counting bytes, so a chunked body that runs
 * over the limit is cut off with 413 and leaves no object. Answers 204.
 */
async function handlePut(store: LocalObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const grant = grantFor(store, request, 'put');
  const sent = request.headers['content-type'];
  if (sent === undefined || mediaTypeEssence(sent) !== mediaTypeEssence(grant.contentType)) {
    throw unsupportedMediaType(
      `This upload link only accepts ${mediaTypeEssence(grant.contentType)} files.`,
    );
  }
  const declared = request.headers['content-length'];
  if (declared !== undefined) {
    const bytes = Number(declared);
    const ceiling = Math.min(grant.maxBytes ?? Infinity, grant.exactBytes ?? Infinity);
    if (bytes > ceiling) throw payloadTooLarge(TOO_LARGE);
    if (grant.exactBytes !== undefined && bytes !== grant.exactBytes) {
      throw badRequest('The file size does not match the size declared for this upload.');
    }
  }
  try {
    await store.write(grant.key, request.raw, grant.contentType, {
      maxBytes: grant.maxBytes,
      ...(grant.exactBytes !== undefined ? { exactBytes: grant.exactBytes } : {}),
    });
  } catch (error) {
    throw uploadError(error);
  }
  return reply.code(204).send();
}

/**
 * GET and HEAD: checks the link, then serves the object with its stored type (or the signed
 * override), a single byte range (206, or 416 when unsatisfiable), and an attachment name when
 * the link carries one.
 */
async function handleGet(store: LocalObjectStore, request: FastifyRequest, reply: FastifyReply) {
  const grant = grantFor(store, request, 'get');
  let object;
  try {
    object = await store.open(grant.key);
  } catch (error) {
    throw uploadError(error);
  }
  if (!object) throw notFound('This file is not available.');
  const { size, handle } = object;
  const range = parseByteRange(request.headers.range, size);
  const remaining = Math.max(0, grant.expiresAt - store.nowSeconds());
  void reply
    .header('accept-ranges', 'bytes')
    .header('cache-control', `private, max-age=${remaining}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', OBJECT_CSP);
  if (range.kind === 'unsatisfiable') {
    await handle.close();
    return reply
      .code(416)
      .header('content-range', `bytes */${size}`)
      .send({ error: 'The requested range is not satisfiable.' });
  }
  const { start, end } = range.kind === 'partial' ? range : { start: 0, end: size - 1 };
  void reply
    .code(range.kind === 'partial' ? 206 : 200)
    .header('content-type', grant.contentType ?? object.contentType ?? 'application/octet-stream')
    .header('content-length', String(end - start + 1))
    .header('last-modified', object.modifiedAt.toUTCString());
  if (range.kind === 'partial') void reply.header('content-range', `bytes ${start}-${end}/${size}`);
  if (grant.downloadName !== undefined) {
    void reply.header('content-disposition', attachmentDisposition(grant.downloadName));
  }
  if (request.method === 'HEAD' || size === 0) {
    await handle.close();
    return reply.send();
  }
  return reply.send(handle.createReadStream({ start, end }));
}

export interface StorageRouteOptions {
  /**
   * Uploads (PUTs) per user per minute, counted per owner of the link's upload key (per address
   * for a link that does not verify); needs @fastify/rate-limit on the app. No limit when unset.
   */
  uploadsPerMinute?: number;
}

/** Whom an upload counts against: the user in the verified link's `uploads/<uid>/` key. */
function uploaderKey(store: LocalObjectStore, request: FastifyRequest): string {
  const verified = store.verifyLink(new URL(request.url, 'http://localhost').searchParams);
  const owner =
    verified.status === 'ok' ? /^uploads\/([^/]+)\//.exec(verified.grant.key)?.[1] : undefined;
  return owner === undefined ? `address:${request.ip}` : `user:${owner}`;
}

/**
 * Serves the local driver's signed links at LOCAL_OBJECT_PATH (PUT, GET, HEAD), in an
 * encapsulated plugin: request bodies bypass the app's parsers and body limit and are streamed
 * to disk, and refusals are `{ error }` JSON. Other errors go on to the app's error handler.
 */
export async function registerLocalStorageRoutes(
  app: FastifyInstance,
  store: LocalObjectStore,
  options: StorageRouteOptions = {},
): Promise<void> {
  const { uploadsPerMinute } = options;
  await app.register((scope, _options, done) => {
    scope.removeAllContentTypeParsers();
    // Leave the body unread: the PUT handler streams request.raw itself.
    scope.addContentTypeParser('*', (_request, _payload, parsed) => {
      parsed(null, undefined);
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (request.method === 'PUT') discardRestOfBody(request);
      if (error instanceof AppError)
        return reply.status(error.status).send({ error: error.message });
      // The upload rate limit (its error is the app's errorResponseBuilder object).
      if (error.statusCode === 429) return reply.status(429).send({ error: error.message });
      throw error;
    });
    // Signed links carry their own authority: no sign-in.
    scope.put(
      LOCAL_OBJECT_PATH,
      {
        config: {
          anonymous: true,
          ...(uploadsPerMinute === undefined
            ? {}
            : {
                rateLimit: {
                  max: uploadsPerMinute,
                  timeWindow: '1 minute',
                  keyGenerator: (request: FastifyRequest) => uploaderKey(store, request),
                },
              }),
        },
      },
      (request, reply) => handlePut(store, request, reply),
    );
    scope.route({
      method: ['GET', 'HEAD'],
      url: LOCAL_OBJECT_PATH,
      config: { anonymous: true },
      handler: (request, reply) => handleGet(store, request, reply),
    });
    done();
  });
}

/** Registers the routes a store needs on this server: the local driver's links; S3 needs none. */
export async function registerStorageRoutes(
  app: FastifyInstance,
  store: ObjectStore,
  options: StorageRouteOptions = {},
): Promise<void> {
  if (store instanceof LocalObjectStore) await registerLocalStorageRoutes(app, store, options);
}
