/**
 * A blob store in an S3 bucket (AWS S3, or an S3-compatible server such as MinIO or Ceph). The
 * filesystem store only works while every process runs on one machine; with several machines (API
 * servers taking uploads, workers transcribing, delivering callbacks) they share media through a bucket.
 *
 * Uploads are multipart, so a blob appears under its key only once every byte has arrived: S3 never
 * shows an incomplete multipart upload as an object, and a failed one is aborted.
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertBlobKey, BlobNotFoundError, type BlobStore } from "./blob-store.ts";

export interface S3BlobStoreOptions {
  /** e.g. http://127.0.0.1:9000; undefined: AWS's own endpoint for the region. */
  readonly endpoint: string | undefined;
  readonly bucket: string;
  readonly region: string;
  /** Both undefined: the AWS SDK's default credential chain. */
  readonly accessKeyId: string | undefined;
  readonly secretAccessKey: string | undefined;
  readonly forcePathStyle: boolean;
  /** Where `withLocalFile` downloads blobs to (a temporary directory). */
  readonly tempDir: string;
}

// Memory held by one put is about (QUEUE_SIZE + 1) parts, whatever the size of the blob. 8 MiB parts
// keep a 10,000-part upload (S3's limit) good for blobs up to about 78 GiB.
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
// DeleteObjects takes at most this many keys per request.
const DELETE_BATCH = 1000;

interface S3Failure {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}

function failure(error: unknown): S3Failure {
  return typeof error === "object" && error !== null ? (error as S3Failure) : {};
}

function isNoSuchBucket(error: unknown): boolean {
  return failure(error).name === "NoSuchBucket";
}

/** True when S3 says there is no such object (NoSuchKey; a bodiless 404 for HEAD). */
function isMissingObject(error: unknown): boolean {
  const { name, $metadata } = failure(error);
  if (name === "NoSuchBucket") return false;
  return name === "NoSuchKey" || name === "NotFound" || $metadata?.httpStatusCode === 404;
}

export function s3BlobStore(options: S3BlobStoreOptions): BlobStore & { close(): void } {
  const { bucket, accessKeyId, secretAccessKey } = options;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error("S3 blob store: give both accessKeyId and secretAccessKey, or neither");
  }
  const client = new S3Client({
    endpoint: options.endpoint,
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    credentials:
      accessKeyId !== undefined && secretAccessKey !== undefined
        ? { accessKeyId, secretAccessKey }
        : undefined,
    // Since early 2025 the SDK adds CRC32 checksums (as aws-chunked trailers) to every upload by
    // default; many S3-compatible servers (older MinIO, Ceph RGW, s3rver) reject or mangle those
    // requests. Checksums only where the S3 API demands them works with AWS and all of those.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });

  const where = `bucket "${bucket}"${options.endpoint === undefined ? "" : ` at ${options.endpoint}`}`;
  // The SDK's own message ("The specified bucket does not exist") names neither bucket nor server,
  // which is what whoever set up the deployment needs to know.
  const explained = (error: unknown): unknown =>
    isNoSuchBucket(error) ? new Error(`S3 blob store: there is no ${where}`, { cause: error }) : error;

  const getObject = async (key: string): Promise<Readable> => {
    assertBlobKey(key);
    try {
      const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      if (!(Body instanceof Readable)) throw new Error(`S3 blob store: no readable body for ${key}`);
      return Body;
    } catch (error) {
      if (isMissingObject(error)) throw new BlobNotFoundError(`no blob ${key}`);
      throw explained(error);
    }
  };

  const deleteBatch = async (keys: string[]): Promise<void> => {
    if (keys.length === 0) return;
    const { Errors } = await client.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    // DeleteObjects answers 200 even when some keys could not be deleted.
    const first = Errors?.[0];
    if (first !== undefined) {
      throw new Error(
        `S3 blob store: could not delete ${Errors?.length} object(s) in ${where}, ` +
          `e.g. ${first.Key}: ${first.Code} ${first.Message}`,
      );
    }
  };

  return {
    async put(key, source) {
      assertBlobKey(key);
      let bytes = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      const feeding = pipeline(source, counted).then(
        () => undefined,
        (error: unknown) => error,
      );
      const upload = new Upload({
        client,
        params: { Bucket: bucket, Key: key, Body: counted },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
      });
      try {
        await upload.done();
      } catch (uploadError) {
        // Stops reading the source when the upload failed first. When the source broke first, that
        // is the error worth reporting: the upload's (an abort the server refused, say) follows from it.
        counted.destroy(uploadError as Error);
        throw explained((await feeding) ?? uploadError);
      }
      const feedError = await feeding;
      if (feedError !== undefined) throw feedError;
      return bytes;
    },

    read: getObject,

    async size(key) {
      assertBlobKey(key);
      try {
        const { ContentLength } = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return ContentLength ?? 0;
      } catch (error) {
        if (!isMissingObject(error)) throw explained(error);
      }
      // A HEAD answer has no body, so a missing bucket looks like a missing object; telling them apart
      // costs a second request, paid only on a miss.
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        if (isMissingObject(error)) throw new Error(`S3 blob store: there is no ${where}`, { cause: error });
        throw error;
      }
      return undefined;
    },

    async withLocalFile(key, work) {
      const body = await getObject(key);
      await fs.mkdir(options.tempDir, { recursive: true });
      const file = path.join(options.tempDir, `${randomUUID()}.blob`);
      try {
        await pipeline(body, createWriteStream(file));
        return await work(file);
      } finally {
        await fs.rm(file, { force: true });
      }
    },

    async delete(key) {
      assertBlobKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      } catch (error) {
        throw explained(error);
      }
    },

    // Like the filesystem store, the prefix names a folder: "media/x" removes "media/x" and everything
    // under "media/x/", never "media/x-encrypted".
    async deletePrefix(prefix) {
      const folder = prefix.replace(/\/+$/, "");
      assertBlobKey(folder);
      try {
        const pages = paginateListObjectsV2(
          { client, pageSize: DELETE_BATCH },
          { Bucket: bucket, Prefix: `${folder}/` },
        );
        for await (const page of pages) {
          const keys = (page.Contents ?? []).flatMap(({ Key }) => (Key === undefined ? [] : [Key]));
          await deleteBatch(keys);
        }
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: folder }));
      } catch (error) {
        throw explained(error);
      }
    },

    close() {
      client.destroy();
    },
  };
}
