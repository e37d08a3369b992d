/**
 * The optional second copy of each scheduled backup in an S3-compatible object store (AWS S3,
 * MinIO, Ceph, Aliyun OSS and the like), so that a backup survives the loss of the server:
 *   BACKUP_S3_ENDPOINT            e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000 (empty: no copy)
 *   BACKUP_S3_BUCKET              the bucket (path-style addressing: ENDPOINT/BUCKET/KEY)
 *   BACKUP_S3_REGION              default us-east-1
 *   BACKUP_S3_ACCESS_KEY_ID, BACKUP_S3_SECRET_ACCESS_KEY
 *   BACKUP_S3_PREFIX              put before the archive's name, e.g. console/ (default none)
 * One PUT of the archive signed with AWS Signature Version 4, its SHA-256 in
 * x-amz-content-sha256 (the store checks the body against it). Old copies are the store's to
 * expire (a lifecycle rule on the prefix); the product deletes none.
 */
import { createHash, createHmac } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { startOutgoing } from '../../tracing/scope.ts';
import { pipeline } from 'node:stream/promises';

export interface S3Target {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  prefix: string;
}

const UPLOAD_TIMEOUT_MS = 30 * 60_000;

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of one path segment, as Signature Version 4 wants it. */
const encodeSegment = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** The headers of a signed PUT of `size` bytes whose SHA-256 is `bodyHash` to `url`. */
export function signedPutHeaders(target: S3Target, url: URL, size: number, bodyHash: string, now = new Date()): Record<string, string> {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    'content-length': String(size),
    'content-type': 'application/gzip',
    host: url.host,
    'x-amz-content-sha256': bodyHash,
    'x-amz-date': amzDate,
  };
  const names = Object.keys(headers).sort();
  const canonical = ['PUT', url.pathname, '', ...names.map((n) => `${n}:${headers[n]}`), '', names.join(';'), bodyHash].join('\n');
  const scope = `${day}/${target.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${target.secretAccessKey}`, day), target.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${target.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
  };
}

/** The object's URL: ENDPOINT/BUCKET/PREFIX+NAME, each path segment encoded. */
export function objectUrl(target: S3Target, name: string): URL {
  const base = new URL(target.endpoint);
  const key = `${target.prefix}${name}`;
  const path = [target.bucket, ...key.split('/')].map(encodeSegment).join('/');
  return new URL(`${base.pathname.replace(/\/+$/, '')}/${path}`, base);
}

/** Uploads the archive at `file` as PREFIX+`name`; answers the object's bucket/key. Throws on any answer but 2xx. */
export async function copyToS3(target: S3Target, file: string, name: string): Promise<string> {
  const url = objectUrl(target, name);
  const { size } = await stat(file);
  const headers = signedPutHeaders(target, url, size, await fileSha256(file));
  const client = url.protocol === 'https:' ? https : http;
  // run for a traced request (the backup job started by hand) the upload is a span of it and carries the trace on
  const call = startOutgoing('s3', 'PUT', url);
  await new Promise<void>((resolve, reject) => {
    const req = client.request(
      url,
      { method: 'PUT', headers: call ? { ...headers, ...call.headers } : headers, timeout: UPLOAD_TIMEOUT_MS },
      (res) => {
        call?.end(res.statusCode ?? 0);
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d.length < 2000 ? d : ''));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status >= 200 && status < 300) resolve();
          else {
            const code = /<Code>([^<]{1,80})<\/Code>/.exec(text)?.[1];
            reject(new Error(`S3 answered ${status}${code ? ` ${code}` : ''}`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('S3 upload timed out')));
    req.on('error', (err) => {
      call?.end(err);
      reject(err);
    });
    createReadStream(file).on('error', reject).pipe(req);
  });
  return `${target.bucket}/${target.prefix}${name}`;
}
