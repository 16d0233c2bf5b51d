import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * A local stand-in for an S3-compatible object store, speaking the S3 REST protocol with
 * path-style addressing (`http://host:port/{bucket}/{key}`), so the real AWS SDK client talks to it
 * unchanged. Mount its plugin at the root of a server of its own (`listenS3Simulator` does).
 *
 * - PutObject (`PUT /b/k`), GetObject (`GET /b/k`), HeadObject (`HEAD /b/k`), DeleteObject
 *   (`DELETE /b/k`), DeleteObjects (`POST /b?delete`, XML, Content-MD5 or an `x-amz-checksum-*`
 *   required) and ListObjectsV2 (`GET /b?list-type=2`: prefix, delimiter, max-keys,
 *   continuation-token, start-after, encoding-type=url). Anything else: 501 NotImplemented.
 * - Every request must carry AWS Signature V4 in the Authorization header, made with a configured
 *   access key and its secret for the configured region and service `s3`, with `x-amz-date` (at most
 *   15 minutes off) and `x-amz-content-sha256` (the body's hash, checked, or `UNSIGNED-PAYLOAD`).
 *   Every `x-amz-*` header sent must be signed. Content-MD5 and x-amz-checksum-crc32/sha1/sha256
 *   are checked against the body.
 * - Refusals are S3's XML error bodies with S3's codes and statuses: AccessDenied (403, e.g. no
 *   signature), InvalidAccessKeyId (403), SignatureDoesNotMatch (403), RequestTimeTooSkewed (403),
 *   AuthorizationHeaderMalformed (400), XAmzContentSHA256Mismatch (400), BadDigest (400),
 *   MalformedXML (400), InvalidArgument (400), NoSuchBucket (404), NoSuchKey (404). A HEAD gets the
 *   status alone.
 */

export interface S3SimulatorOptions {
  /** Key pairs the simulator accepts. */
  credentials: Array<{ accessKeyId: string; secretAccessKey: string }>;
  /** Buckets that exist (empty at first). */
  buckets: string[];
  region?: string;
  clock?: () => Date;
}

export interface SimulatedObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface S3Simulator {
  plugin: (app: FastifyInstance) => Promise<void>;
  /** A bucket's objects by key (a live view, for tests to look into and tamper with). */
  bucket(name: string): Map<string, SimulatedObject>;
}

const XML_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
const MAX_SKEW_MS = 15 * 60_000;
const MAX_KEY_BYTES = 1024;
const MAX_DELETE_KEYS = 1000;
const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** Query parameters the AWS SDK adds for its own bookkeeping, not subresources. */
const SDK_QUERY = new Set(['x-id']);

class S3Failure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, string> = {},
  ) {
    super(message);
  }
}

const accessDenied = (message = 'Access Denied') => new S3Failure(403, 'AccessDenied', message);
const notImplemented = () =>
  new S3Failure(
    501,
    'NotImplemented',
    'A header you provided implies functionality that is not implemented.',
  );
const malformedXml = () =>
  new S3Failure(
    400,
    'MalformedXML',
    'The XML you provided was not well-formed or did not validate against our published schema',
  );
const malformedAuthorization = (message: string) =>
  new S3Failure(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; ${message}`);

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
const element = (name: string, content: string) => `<${name}>${content}</${name}>`;
const text = (name: string, value: string | number | boolean) => element(name, escapeXml(String(value)));
const xmlDocument = (root: string, content: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${XML_NAMESPACE}">${content}</${root}>`;

/** RFC 3986 encoding as Signature V4 wants it: everything but A-Z a-z 0-9 - _ . ~ is escaped. */
const uriEncode = (value: string) =>
  encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );

function decode(component: string) {
  try {
    return decodeURIComponent(component);
  } catch {
    throw new S3Failure(400, 'InvalidURI', "Couldn't parse the specified URI.");
  }
}

const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** The request split the way Signature V4 and the router need it. */
interface ParsedRequest {
  method: string;
  rawPath: string;
  query: Array<[string, string]>;
  bucket: string;
  key: string;
  headers: Map<string, string[]>;
  body: Buffer;
}

function parseRequest(request: FastifyRequest): ParsedRequest {
  const url = request.raw.url ?? '/';
  const queryStart = url.indexOf('?');
  const rawPath = queryStart === -1 ? url : url.slice(0, queryStart);
  const rawQuery = queryStart === -1 ? '' : url.slice(queryStart + 1);
  const query = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair): [string, string] => {
      const equals = pair.indexOf('=');
      return equals === -1
        ? [decode(pair), '']
        : [decode(pair.slice(0, equals)), decode(pair.slice(equals + 1))];
    });
  const path = decode(rawPath);
  const slash = path.indexOf('/', 1);
  const headers = new Map<string, string[]>();
  const raw = request.raw.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = (raw[index] ?? '').toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), raw[index + 1] ?? '']);
  }
  return {
    method: request.method,
    rawPath,
    query,
    bucket: slash === -1 ? path.slice(1) : path.slice(1, slash),
    key: slash === -1 ? '' : path.slice(slash + 1),
    headers,
    body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
  };
}

const header = (request: ParsedRequest, name: string) => request.headers.get(name)?.join(',');
const queryValue = (request: ParsedRequest, name: string) => request.query.find(([key]) => key === name)?.[1];

const AUTHORIZATION =
  /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/**
 * Checks Signature V4 exactly as S3 does: rebuilds the canonical request from what arrived,
 * derives the signing key from the secret of the named access key, and compares signatures.
 */
function authenticate(request: ParsedRequest, secrets: Map<string, string>, region: string, now: Date): void {
  const authorization = header(request, 'authorization');
  if (!authorization) throw accessDenied();
  if (!authorization.startsWith('AWS4-HMAC-SHA256 ')) {
    throw new S3Failure(
      400,
      'InvalidRequest',
      'The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.',
    );
  }
  const match = AUTHORIZATION.exec(authorization);
  if (!match) throw malformedAuthorization('the Credential, SignedHeaders or Signature part is missing');
  const [
    ,
    accessKeyId = '',
    credentialDate = '',
    credentialRegion = '',
    service = '',
    signedList = '',
    signature = '',
  ] = match;
  const secret = secrets.get(accessKeyId);
  if (secret === undefined) {
    throw new S3Failure(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
      {
        AWSAccessKeyId: accessKeyId,
      },
    );
  }
  if (credentialRegion !== region) {
    throw malformedAuthorization(`the region '${credentialRegion}' is wrong; expecting '${region}'`);
  }
  if (service !== 's3')
    throw malformedAuthorization(`incorrect service '${service}'. This endpoint belongs to 's3'.`);

  const amzDate = header(request, 'x-amz-date') ?? '';
  const signedAt = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!signedAt) throw accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  if (credentialDate !== amzDate.slice(0, 8)) {
    throw malformedAuthorization('Invalid credential date. Date is not the same as X-Amz-Date.');
  }
  const [, year, month, day, hours, minutes, seconds] = signedAt.map(Number);
  const signedTime = Date.UTC(year ?? 0, (month ?? 1) - 1, day, hours, minutes, seconds);
  if (Math.abs(now.getTime() - signedTime) > MAX_SKEW_MS) {
    throw new S3Failure(
      403,
      'RequestTimeTooSkewed',
      'The difference between the request time and the current time is too large.',
      {
        RequestTime: amzDate,
        ServerTime: now.toISOString(),
      },
    );
  }

  const payloadHash = header(request, 'x-amz-content-sha256');
  if (payloadHash === undefined) {
    throw new S3Failure(
      400,
      'InvalidRequest',
      'Missing required header for this request: x-amz-content-sha256',
    );
  }
  if (payloadHash.startsWith('STREAMING-')) throw notImplemented();
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw new S3Failure(
      400,
      'InvalidArgument',
      'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, or a valid sha256 value.',
    );
  }

  const signedHeaders = signedList.split(';');
  if (!signedHeaders.includes('host')) throw accessDenied('The host header must be signed');
  const unsigned = [...request.headers.keys()].filter(
    (name) => name.startsWith('x-amz-') && !signedHeaders.includes(name),
  );
  if (unsigned.length > 0)
    throw accessDenied('There were headers present in the request which were not signed');

  const canonicalRequest = [
    request.method,
    request.rawPath
      .split('/')
      .map((segment) => uriEncode(decode(segment)))
      .join('/'),
    request.query
      .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
      .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
      .map(([name, value]) => `${name}=${value}`)
      .join('&'),
    ...signedHeaders.map(
      (name) =>
        `${name}:${(request.headers.get(name) ?? []).map((value) => value.trim().replace(/\s+/g, ' ')).join(',')}`,
    ),
    '',
    signedList,
    payloadHash,
  ].join('\n');
  const scope = `${credentialDate}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = ['s3', 'aws4_request'].reduce(
    (key, part) => hmac(key, part),
    hmac(hmac(`AWS4${secret}`, credentialDate), region),
  );
  const expected = hmac(signingKey, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new S3Failure(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      {
        AWSAccessKeyId: accessKeyId,
        StringToSign: stringToSign,
        SignatureProvided: signature,
        CanonicalRequest: canonicalRequest,
      },
    );
  }

  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    const computed = sha256Hex(request.body);
    if (computed !== payloadHash) {
      throw new S3Failure(
        400,
        'XAmzContentSHA256Mismatch',
        "The provided 'x-amz-content-sha256' header does not match what was computed.",
        { ClientComputedContentSHA256: payloadHash, S3ComputedContentSHA256: computed },
      );
    }
  }
}

/** Checks the body against Content-MD5 and any x-amz-checksum-*; answers whether one was given. */
function checkIntegrity(request: ParsedRequest): boolean {
  const digests: Array<[string, string | undefined, (body: Buffer) => string]> = [
    [
      'content-md5',
      header(request, 'content-md5'),
      (body) => createHash('md5').update(body).digest('base64'),
    ],
    [
      'x-amz-checksum-crc32',
      header(request, 'x-amz-checksum-crc32'),
      (body) => {
        const value = Buffer.alloc(4);
        value.writeUInt32BE(crc32(body));
        return value.toString('base64');
      },
    ],
    [
      'x-amz-checksum-sha1',
      header(request, 'x-amz-checksum-sha1'),
      (body) => createHash('sha1').update(body).digest('base64'),
    ],
    [
      'x-amz-checksum-sha256',
      header(request, 'x-amz-checksum-sha256'),
      (body) => createHash('sha256').update(body).digest('base64'),
    ],
  ];
  for (const name of request.headers.keys()) {
    if (name.startsWith('x-amz-checksum-') && !digests.some(([known]) => known === name))
      throw notImplemented();
  }
  let given = false;
  for (const [name, value, compute] of digests) {
    if (value === undefined) continue;
    given = true;
    if (compute(request.body) === value) continue;
    if (name === 'content-md5') {
      if (Buffer.from(value, 'base64').length !== 16) {
        throw new S3Failure(400, 'InvalidDigest', 'The Content-MD5 you specified was invalid.');
      }
      throw new S3Failure(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
    }
    throw new S3Failure(
      400,
      'BadDigest',
      `The ${name.slice('x-amz-checksum-'.length).toUpperCase()} you specified did not match the calculated checksum.`,
    );
  }
  return given;
}

function listObjectsV2(request: ParsedRequest, name: string, objects: Map<string, SimulatedObject>) {
  const prefix = queryValue(request, 'prefix') ?? '';
  const delimiter = queryValue(request, 'delimiter') ?? '';
  const startAfter = queryValue(request, 'start-after') ?? '';
  const token = queryValue(request, 'continuation-token');
  const encoding = queryValue(request, 'encoding-type');
  if (encoding !== undefined && encoding !== 'url') {
    throw new S3Failure(400, 'InvalidArgument', 'Invalid Encoding Method specified in Request', {
      ArgumentName: 'encoding-type',
      ArgumentValue: encoding,
    });
  }
  const maxKeysText = queryValue(request, 'max-keys') ?? '1000';
  if (!/^\d+$/.test(maxKeysText)) {
    throw new S3Failure(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range', {
      ArgumentName: 'max-keys',
      ArgumentValue: maxKeysText,
    });
  }
  const maxKeys = Math.min(Number(maxKeysText), 1000);
  // The token says where the previous page stopped: after a key, or after a whole common prefix.
  let resumeAfter = startAfter;
  let skipPrefix = '';
  if (token !== undefined) {
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    if (!/^[kp]:/.test(decoded)) {
      throw new S3Failure(400, 'InvalidArgument', 'The continuation token provided is incorrect', {
        ArgumentName: 'continuation-token',
      });
    }
    resumeAfter = decoded.slice(2);
    if (decoded.startsWith('p:')) skipPrefix = resumeAfter;
  }

  const contents: Array<[string, SimulatedObject]> = [];
  const commonPrefixes: string[] = [];
  let truncated = false;
  let last = '';
  const keys = [...objects.keys()]
    .filter(
      (key) => key.startsWith(prefix) && key > resumeAfter && !(skipPrefix && key.startsWith(skipPrefix)),
    )
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const key of keys) {
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    const commonPrefix = cut === -1 ? null : key.slice(0, cut + delimiter.length);
    if (commonPrefix !== null && commonPrefix === commonPrefixes.at(-1)) continue;
    if (contents.length + commonPrefixes.length === maxKeys) {
      // max-keys=0 asks for no page at all, not for an endless series of empty ones.
      truncated = maxKeys > 0;
      break;
    }
    if (commonPrefix === null) {
      contents.push([key, objects.get(key) as SimulatedObject]);
      last = `k:${key}`;
    } else {
      commonPrefixes.push(commonPrefix);
      last = `p:${commonPrefix}`;
    }
  }
  const encode = (value: string) => (encoding === 'url' ? uriEncode(value).replace(/%2F/g, '/') : value);
  return xmlDocument(
    'ListBucketResult',
    [
      text('Name', name),
      text('Prefix', encode(prefix)),
      delimiter ? text('Delimiter', encode(delimiter)) : '',
      text('MaxKeys', maxKeys),
      text('KeyCount', contents.length + commonPrefixes.length),
      text('IsTruncated', truncated),
      encoding ? text('EncodingType', encoding) : '',
      token !== undefined ? text('ContinuationToken', token) : '',
      truncated ? text('NextContinuationToken', Buffer.from(last).toString('base64url')) : '',
      startAfter ? text('StartAfter', encode(startAfter)) : '',
      ...contents.map(([key, object]) =>
        element(
          'Contents',
          text('Key', encode(key)) +
            text('LastModified', object.lastModified.toISOString()) +
            text('ETag', object.etag) +
            text('Size', object.body.length) +
            text('StorageClass', 'STANDARD'),
        ),
      ),
      ...commonPrefixes.map((commonPrefix) =>
        element('CommonPrefixes', text('Prefix', encode(commonPrefix))),
      ),
    ].join(''),
  );
}

const deleteRequestParser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignoreAttributes: true,
  isArray: (name) => name === 'Object',
});

function deleteObjects(request: ParsedRequest, objects: Map<string, SimulatedObject>) {
  if (!checkIntegrity(request)) {
    throw new S3Failure(400, 'InvalidRequest', 'Missing required header for this request: Content-MD5');
  }
  const xml = request.body.toString('utf8');
  if (XMLValidator.validate(xml) !== true) throw malformedXml();
  const parsed = deleteRequestParser.parse(xml) as {
    Delete?: { Object?: Array<{ Key?: unknown }>; Quiet?: unknown };
  };
  const entries = parsed.Delete?.Object;
  if (!entries || entries.length === 0 || entries.length > MAX_DELETE_KEYS) throw malformedXml();
  const keys = entries.map((entry) => entry.Key);
  if (!keys.every((key): key is string => typeof key === 'string' && key.length > 0)) throw malformedXml();
  const quiet = parsed.Delete?.Quiet === 'true';
  for (const key of keys) objects.delete(key);
  return xmlDocument(
    'DeleteResult',
    quiet ? '' : keys.map((key) => element('Deleted', text('Key', key))).join(''),
  );
}

const newRequestId = () => randomBytes(8).toString('hex').toUpperCase();

export function createS3Simulator(options: S3SimulatorOptions): S3Simulator {
  const region = options.region ?? 'us-east-1';
  const clock = options.clock ?? (() => new Date());
  const secrets = new Map(options.credentials.map((pair) => [pair.accessKeyId, pair.secretAccessKey]));
  const buckets = new Map(options.buckets.map((name) => [name, new Map<string, SimulatedObject>()]));

  function reply(request: FastifyRequest, answer: FastifyReply, failure: S3Failure, requestId: string) {
    answer.status(failure.status).header('x-amz-request-id', requestId);
    if (request.method === 'HEAD') return answer.send();
    const details = Object.entries(failure.details)
      .map(([name, value]) => text(name, value))
      .join('');
    return answer
      .type('application/xml')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${text('Code', failure.code)}${text('Message', failure.message)}${details}${text('RequestId', requestId)}${text('HostId', requestId)}</Error>`,
      );
  }

  function handle(request: ParsedRequest, answer: FastifyReply) {
    authenticate(request, secrets, region, clock());
    if (!request.bucket) throw notImplemented();
    const objects = buckets.get(request.bucket);
    if (!objects) {
      throw new S3Failure(404, 'NoSuchBucket', 'The specified bucket does not exist', {
        BucketName: request.bucket,
      });
    }
    const subresources = request.query.filter(([name]) => !SDK_QUERY.has(name)).map(([name]) => name);

    if (request.key === '') {
      if (request.method === 'GET' && queryValue(request, 'list-type') === '2') {
        return answer.type('application/xml').send(listObjectsV2(request, request.bucket, objects));
      }
      if (request.method === 'POST' && subresources.length === 1 && subresources[0] === 'delete') {
        return answer.type('application/xml').send(deleteObjects(request, objects));
      }
      throw notImplemented();
    }

    if (subresources.length > 0 || header(request, 'x-amz-copy-source') !== undefined) throw notImplemented();
    if (Buffer.byteLength(request.key) > MAX_KEY_BYTES) {
      throw new S3Failure(400, 'KeyTooLongError', 'Your key is too long');
    }
    switch (request.method) {
      case 'PUT': {
        checkIntegrity(request);
        const etag = `"${createHash('md5').update(request.body).digest('hex')}"`;
        objects.set(request.key, {
          body: request.body,
          contentType: header(request, 'content-type') ?? 'binary/octet-stream',
          etag,
          lastModified: clock(),
        });
        return answer.header('etag', etag).send();
      }
      case 'GET':
      case 'HEAD': {
        const object = objects.get(request.key);
        if (!object)
          throw new S3Failure(404, 'NoSuchKey', 'The specified key does not exist.', { Key: request.key });
        answer
          .header('content-type', object.contentType)
          .header('content-length', object.body.length)
          .header('etag', object.etag)
          .header('last-modified', object.lastModified.toUTCString())
          .header('accept-ranges', 'bytes');
        return request.method === 'HEAD' ? answer.send() : answer.send(object.body);
      }
      case 'DELETE':
        objects.delete(request.key);
        return answer.status(204).send();
      default:
        throw notImplemented();
    }
  }

  return {
    async plugin(app) {
      app.removeAllContentTypeParsers();
      app.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: MAX_BODY_BYTES },
        (_request, body, done) => done(null, body),
      );
      // What fails before the handler runs (an oversized body) or inside it unexpectedly.
      app.setErrorHandler((error: Error & { code?: string }, request, answer) => {
        const requestId = newRequestId();
        if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
          return reply(
            request,
            answer,
            new S3Failure(400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'),
            requestId,
          );
        }
        request.log.error({ err: error }, 'S3 simulator failed');
        return reply(
          request,
          answer,
          new S3Failure(500, 'InternalError', 'We encountered an internal error. Please try again.'),
          requestId,
        );
      });
      app.route({
        method: ['GET', 'HEAD', 'PUT', 'POST', 'DELETE'],
        url: '/*',
        handler: async (request, answer) => {
          const requestId = newRequestId();
          answer.header('x-amz-request-id', requestId);
          try {
            return handle(parseRequest(request), answer);
          } catch (error) {
            if (error instanceof S3Failure) return reply(request, answer, error, requestId);
            throw error;
          }
        },
      });
    },
    bucket(name) {
      const objects = buckets.get(name);
      if (!objects) throw new Error(`The simulator has no bucket ${name}`);
      return objects;
    },
  };
}

/** Starts the simulator on its own server (a free loopback port unless given); `endpoint` is its URL. */
export async function listenS3Simulator(options: S3SimulatorOptions & { port?: number }) {
  const simulator = createS3Simulator(options);
  const server = Fastify({ logger: false });
  await server.register(simulator.plugin);
  await server.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { simulator, endpoint: `http://127.0.0.1:${port}`, close: () => server.close() };
}
