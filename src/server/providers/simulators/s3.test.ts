import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listenS3Simulator } from './s3.ts';

const REGION = 'eu-central-1';
const KEYS = { accessKeyId: 'simulator-key', secretAccessKey: 'simulator-secret' };
const BUCKET = 'shop';

let server: Awaited<ReturnType<typeof listenS3Simulator>>;
let clockOffsetMs = 0;

beforeAll(async () => {
  server = await listenS3Simulator({
    credentials: [KEYS],
    buckets: [BUCKET],
    region: REGION,
    clock: () => new Date(Date.now() + clockOffsetMs),
  });
});
afterAll(() => server.close());
beforeEach(() => {
  clockOffsetMs = 0;
  server.simulator.bucket(BUCKET).clear();
});

const client = (config: Partial<S3ClientConfig> = {}) =>
  new S3Client({
    region: REGION,
    endpoint: server.endpoint,
    forcePathStyle: true,
    credentials: KEYS,
    maxAttempts: 1,
    ...config,
  });

type Middleware = Parameters<S3Client['middlewareStack']['addRelativeTo']>[0];

interface OutgoingRequest {
  path: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * A client that changes its requests just before (`before`) or just after (`after`) signing them:
 * after is what a man in the middle does.
 */
function changing(relation: 'before' | 'after', change: (request: OutgoingRequest) => void) {
  const s3 = client();
  // The stack's middleware type is a union over every step; this one is a finalizeRequest middleware.
  s3.middlewareStack.addRelativeTo(
    ((next: (args: { request: unknown }) => Promise<unknown>) => async (args: { request: unknown }) => {
      change(args.request as OutgoingRequest);
      return next(args);
    }) as unknown as Middleware,
    { relation, toMiddleware: 'httpSigningMiddleware' },
  );
  return s3;
}

const put = (s3: S3Client, Key: string, Body: string | Uint8Array = 'content', ContentType = 'text/plain') =>
  s3.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body, ContentType }));

/** The code S3 puts in its XML error body. */
const errorCode = (xml: string) => /<Code>([^<]+)<\/Code>/.exec(xml)?.[1];

describe('S3 simulator: the objects', () => {
  it('stores, reads, heads and deletes objects through the real SDK, keys with any characters included', async () => {
    const s3 = client();
    for (const key of [
      'img/a.webp',
      'files/with space+plus/',
      'unicode/кириллица (1).txt',
      "odd/!*()~'.bin",
    ]) {
      await put(s3, key, `body of ${key}`);
      const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(await object.Body?.transformToString(), key).toBe(`body of ${key}`);
      expect(object.ContentType).toBe('text/plain');
      const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(head.ContentLength).toBe(Buffer.byteLength(`body of ${key}`));
    }
    expect([...server.simulator.bucket(BUCKET).keys()]).toHaveLength(4);
    await s3.send(
      new DeleteObjectsCommand({
        Bucket: BUCKET,
        Delete: { Objects: [{ Key: 'img/a.webp' }, { Key: 'unicode/кириллица (1).txt' }] },
      }),
    );
    expect([...server.simulator.bucket(BUCKET).keys()].sort()).toEqual([
      'files/with space+plus/',
      "odd/!*()~'.bin",
    ]);
  });

  it('answers NoSuchKey and NoSuchBucket as S3 does, and a bare 404 to HEAD', async () => {
    const s3 = client();
    await expect(
      s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'missing.webp' })),
    ).rejects.toMatchObject({
      name: 'NoSuchKey',
      Key: 'missing.webp',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(
      s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'missing.webp' })),
    ).rejects.toMatchObject({
      name: 'NotFound',
      $metadata: { httpStatusCode: 404 },
    });
    await expect(s3.send(new GetObjectCommand({ Bucket: 'elsewhere', Key: 'a' }))).rejects.toMatchObject({
      name: 'NoSuchBucket',
      BucketName: 'elsewhere',
      $metadata: { httpStatusCode: 404 },
    });
  });

  it('lists one level with common prefixes, page by page', async () => {
    const s3 = client();
    for (const key of ['f/', 'f/a/', 'f/a/1.txt', 'f/b/2.txt', 'f/c.txt', 'f/d.txt', 'f/e/', 'g/x.txt'])
      await put(s3, key);
    const pages: Array<{ keys: string[]; prefixes: string[]; count: number | undefined }> = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({
          Bucket: BUCKET,
          Prefix: 'f/',
          Delimiter: '/',
          MaxKeys: 2,
          ContinuationToken,
        }),
      );
      pages.push({
        keys: (page.Contents ?? []).map((object) => object.Key ?? ''),
        prefixes: (page.CommonPrefixes ?? []).map((prefix) => prefix.Prefix ?? ''),
        count: page.KeyCount,
      });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    // Keys and common prefixes share one order and one MaxKeys; a prefix is never split over pages.
    expect(pages).toEqual([
      { keys: ['f/'], prefixes: ['f/a/'], count: 2 },
      { keys: ['f/c.txt'], prefixes: ['f/b/'], count: 2 },
      { keys: ['f/d.txt'], prefixes: ['f/e/'], count: 2 },
    ]);

    const flat = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'f/a' }));
    expect(flat.Contents?.map((object) => object.Key)).toEqual(['f/a/', 'f/a/1.txt']);
    expect(flat.Contents?.[1]).toMatchObject({ Size: 7, ETag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
  });

  it("accepts the SDK's default checksums and refuses a body that does not match its checksum", async () => {
    await put(client({ requestChecksumCalculation: 'WHEN_SUPPORTED' }), 'checked.txt', 'checked body');
    expect(server.simulator.bucket(BUCKET).get('checked.txt')?.body.toString()).toBe('checked body');

    // A checksum that is signed but does not match the body.
    const s3 = client({ requestChecksumCalculation: 'WHEN_REQUIRED' });
    await expect(
      s3.send(
        new PutObjectCommand({ Bucket: BUCKET, Key: 'x.txt', Body: 'content', ChecksumCRC32: 'AAAAAA==' }),
      ),
    ).rejects.toMatchObject({ name: 'BadDigest', $metadata: { httpStatusCode: 400 } });
    expect(server.simulator.bucket(BUCKET).has('x.txt')).toBe(false);
  });
});

describe('S3 simulator: Signature V4', () => {
  it('refuses a request without a signature: AccessDenied, as XML', async () => {
    await put(client(), 'private.txt');
    const anonymous = await fetch(`${server.endpoint}/${BUCKET}/private.txt`);
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(errorCode(await anonymous.text())).toBe('AccessDenied');
    const listing = await fetch(`${server.endpoint}/${BUCKET}?list-type=2`);
    expect(errorCode(await listing.text())).toBe('AccessDenied');
  });

  it('refuses a wrong secret, an unknown key and the wrong region, storing nothing', async () => {
    await expect(
      put(client({ credentials: { ...KEYS, secretAccessKey: 'wrong-secret' } }), 'forged.txt'),
    ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch', $metadata: { httpStatusCode: 403 } });
    await expect(
      put(
        client({ credentials: { accessKeyId: 'stranger', secretAccessKey: KEYS.secretAccessKey } }),
        'forged.txt',
      ),
    ).rejects.toMatchObject({ name: 'InvalidAccessKeyId', $metadata: { httpStatusCode: 403 } });
    await expect(put(client({ region: 'us-west-2' }), 'forged.txt')).rejects.toMatchObject({
      name: 'AuthorizationHeaderMalformed',
      $metadata: { httpStatusCode: 400 },
    });
    expect(server.simulator.bucket(BUCKET).size).toBe(0);
  });

  it('refuses a request changed after it was signed: a header, the body, the path', async () => {
    await expect(
      put(
        changing('after', (request) => {
          request.headers['content-type'] = 'text/html';
        }),
        'changed.txt',
      ),
    ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    await expect(
      put(
        changing('after', (request) => {
          request.body = Buffer.from('replaced');
          request.headers['content-length'] = '8';
        }),
        'changed.txt',
        'original',
      ),
    ).rejects.toMatchObject({ name: 'XAmzContentSHA256Mismatch', $metadata: { httpStatusCode: 400 } });
    await expect(
      put(
        changing('after', (request) => {
          request.headers['x-amz-meta-added'] = 'unsigned';
        }),
        'changed.txt',
      ),
    ).rejects.toMatchObject({ name: 'AccessDenied' });
    await expect(
      put(
        changing('after', (request) => {
          request.path = `/${BUCKET}/elsewhere.txt`;
        }),
        'changed.txt',
      ),
    ).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    expect(server.simulator.bucket(BUCKET).size).toBe(0);
  });

  it('refuses a signature made more than 15 minutes away from its clock', async () => {
    clockOffsetMs = 20 * 60_000;
    await expect(put(client(), 'late.txt')).rejects.toMatchObject({
      name: 'RequestTimeTooSkewed',
      $metadata: { httpStatusCode: 403 },
    });
    clockOffsetMs = 10 * 60_000;
    await put(client(), 'late.txt');
  });

  it('requires an integrity header on DeleteObjects and checks it', async () => {
    await put(client(), 'keep.txt');
    // Signed without the checksum the SDK adds, so only the missing header is wrong.
    const withoutChecksum = changing('before', (request) => {
      delete request.headers['x-amz-checksum-crc32'];
      delete request.headers['x-amz-sdk-checksum-algorithm'];
    });
    await expect(
      withoutChecksum.send(
        new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: 'keep.txt' }] } }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidRequest', $metadata: { httpStatusCode: 400 } });
    expect(server.simulator.bucket(BUCKET).has('keep.txt')).toBe(true);
  });
});
