import { badRequest } from '../http/errors.ts';
import type { UploadedFile } from '../http/multipart.ts';

/** The one part named `file` of a multipart upload (400 when absent or empty). */
export function uploadedFile(files: UploadedFile[]): Buffer {
  const file = files.find((f) => f.field === 'file');
  if (!file || file.data.length === 0) throw badRequest(['file: a non-empty part named file is required']);
  return file.data;
}
