import busboy from 'busboy';
import { BadRequestError, PayloadTooLargeError } from './errors.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

/**
 * Parses a multipart body (API Gateway hands it over base64-encoded) into its files. A file over
 * `maxBytes` is a 413; a body that is not multipart, or has no part named `file`, is a 400.
 */
export function parseMultipart(
  body: Buffer,
  contentType: string | undefined,
  maxBytes: number,
): Promise<UploadedFile[]> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    return Promise.reject(
      new BadRequestError(['file: send the upload as multipart/form-data with one part named file']),
    );
  }
  return new Promise((resolve, reject) => {
    const files: UploadedFile[] = [];
    let failed = false;
    let parser: busboy.Busboy;
    try {
      // busboy reports the limit once a file reaches `fileSize` bytes, so a file of exactly maxBytes needs one more.
      parser = busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: maxBytes + 1, files: 5, fields: 20 },
      });
    } catch {
      reject(new BadRequestError(['file: the multipart body is malformed']));
      return;
    }
    const malformed = () => {
      if (!failed) reject(new BadRequestError(['file: the multipart body is malformed']));
      failed = true;
    };
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      // busboy fails a part cut short ("Unexpected end of form") on the part's own stream: an
      // 'error' nobody listens to would be thrown out of the event loop and end the process.
      stream.on('error', malformed);
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => {
        failed = true;
        reject(new PayloadTooLargeError(`The file is larger than ${Math.round(maxBytes / 1024 / 1024)} MB.`));
      });
      stream.on('end', () =>
        files.push({
          field,
          filename: info.filename ?? '',
          mimeType: info.mimeType ?? '',
          data: Buffer.concat(chunks),
        }),
      );
    });
    parser.on('error', malformed);
    parser.on('close', () => {
      if (!failed) resolve(files);
    });
    parser.end(body);
  });
}
